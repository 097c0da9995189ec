/** swagger-ui-dist ships no types; this is the one function the docs page uses. */
declare module 'swagger-ui-dist/absolute-path.js' {
  /** The package's folder, where the page's assets are. */
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
