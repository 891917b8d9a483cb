#!/bin/sh
# `npm test`: the type check and every suite, side by side. The type check (tsc, 11 s cold, one
# core) runs while vitest builds dist/ and starts its first files, instead of before them; its
# findings are printed after the suites, and either failing fails the run. Arguments go to vitest
# (`npm test -- --reporter=dot`).
set -u
mkdir -p node_modules/.cache/svc
types="$(mktemp)"
trap 'rm -f "$types"' EXIT
tsc --noEmit --incremental --tsBuildInfoFile node_modules/.cache/svc/tsc.tsbuildinfo >"$types" 2>&1 &
tsc_pid=$!
vitest run "$@"
suites=$?
wait "$tsc_pid"
typecheck=$?
if [ "$typecheck" -ne 0 ]; then
  echo
  echo "The type check (tsc --noEmit) failed:"
  cat "$types"
fi
[ "$suites" -eq 0 ] && [ "$typecheck" -eq 0 ]
