#!/usr/bin/env bash
# Records test/fixtures/strapi-export/ again from a real Strapi 5: builds and starts the reference
# app of the shared conformance folder (start-strapi.sh: Strapi 5.54 from the npm registry, the
# conformance content types, SQLite), seeds it through its public API (seed.mjs), registers the
# two users the import tests sign in as, runs Strapi's own `strapi export --no-encrypt
# --no-compress`, and copies the archive and the seed map here. Nothing else is needed beside the
# shared folder; the tests only read the committed result.
#
#   scripts/strapi-export-fixture.sh CONFORMANCE_DIR   # the shared folder's conformance/ (start-strapi.sh, seed.mjs)
#
# PORT (default 1360) and the variables of start-strapi.sh are honoured.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REF="$(cd "${1:?usage: strapi-export-fixture.sh CONFORMANCE_DIR (the folder with start-strapi.sh and seed.mjs)}" && pwd)"
PORT="${PORT:-1360}"
BASE="http://127.0.0.1:$PORT"
APP_DIR="${STRAPI_APP_DIR:-${TMPDIR:-/tmp}/strapi-conformance-app-$PORT}"
OUT="$REPO/test/fixtures/strapi-export"
WORK="$(mktemp -d)"
trap 'PORT="$PORT" STRAPI_APP_DIR="$APP_DIR" "$REF/start-strapi.sh" stop; rm -rf "$WORK"' EXIT

PORT="$PORT" STRAPI_APP_DIR="$APP_DIR" "$REF/start-strapi.sh"
node "$REF/seed.mjs" --base "$BASE" --out "$WORK/seed-map.json"

register() {
  curl -fsS -X POST "$BASE/api/auth/local/register" -H 'content-type: application/json' \
    -d "{\"username\":\"$1\",\"email\":\"$2\",\"password\":\"$3\"}" >/dev/null
}
register ada ada@example.com Ada-Secret-1
register alan alan@example.com Alan-Secret-2

# The export reads the same database the server writes: run it from the app folder, with the
# environment start-strapi.sh started the server with.
(
  cd "$APP_DIR"
  DATABASE_FILENAME="$APP_DIR/.tmp/data.db" NODE_ENV=production STRAPI_TELEMETRY_DISABLED=true \
    node_modules/.bin/strapi export --no-encrypt --no-compress -f "$WORK/conformance-seed"
)

mkdir -p "$OUT"
cp "$WORK/conformance-seed.tar" "$OUT/conformance-seed.tar"
cp "$WORK/seed-map.json" "$OUT/seed-map.json"
echo "wrote $OUT/conformance-seed.tar and seed-map.json; commit them with what the new recording asks of the code"
