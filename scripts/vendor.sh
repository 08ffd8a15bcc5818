#!/usr/bin/env bash
# Re-fetch the vendored front-end files into static/vendor/ from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent htmx.org@2.0.11 @picocss/pico@2.1.1 htmx-ext-sse@2.2.4 >/dev/null)
tar xzf "$tmp/htmx.org-2.0.11.tgz" -C "$tmp" package/dist/htmx.min.js
cp "$tmp/package/dist/htmx.min.js" static/vendor/htmx-2.0.11.min.js
tar xzf "$tmp/picocss-pico-2.1.1.tgz" -C "$tmp" package/css/pico.jade.min.css
cp "$tmp/package/css/pico.jade.min.css" static/vendor/pico-2.1.1.jade.min.css
tar xzf "$tmp/htmx-ext-sse-2.2.4.tgz" -C "$tmp" package/dist/sse.min.js
cp "$tmp/package/dist/sse.min.js" static/vendor/htmx-ext-sse-2.2.4.min.js
