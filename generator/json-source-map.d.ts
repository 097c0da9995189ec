// json-source-map ships no types; only `parse` is used (see load.ts).
declare module 'json-source-map' {
  interface Location {
    line: number;
    column: number;
    pos: number;
  }
  interface PointerLocation {
    value: Location;
    valueEnd: Location;
    key?: Location;
    keyEnd?: Location;
  }
  export function parse(text: string): { data: unknown; pointers: Record<string, PointerLocation> };
  const jsonSourceMap: { parse: typeof parse };
  export default jsonSourceMap;
}
