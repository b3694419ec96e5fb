#!/usr/bin/env bash
# The package.json scripts that run other programs (npm test, typecheck, node-version, audit): each answers
# --help (or -h) with its usage and exit codes, as the TypeScript commands do, and otherwise runs its
# program with the arguments npm passes on. Usage: bash scripts/tool-script.sh NAME [ARGUMENT ...]
set -euo pipefail

name=$1
shift
case $name in
  test)
    usage='Usage: npm test [-- JEST ARGUMENT ...]   (e.g. npm test -- tests/unit/config.test.ts)
Type-checks (tsc --noEmit), ensures the test services (scripts/ensure-test-services.sh), then runs jest with
the arguments given (npx jest --help lists them); docs/testing.md.
Exit codes: 0 every check and test passed, 1 a type error, a missing service or a failed test.' ;;
  typecheck)
    usage='Usage: npm run typecheck: tsc --noEmit -p . (the whole project, strict).
Exit codes: 0 no type error, 1 or 2 type errors (tsc prints them).' ;;
  node-version)
    usage='Usage: npm run node-version: the Node and tsx that npm scripts run on (docs/node.md).
Exit codes: 0 printed.' ;;
  audit)
    usage='Usage: npm run audit: npm audit --omit=dev, failing on a high or critical advisory (docs/testing.md).
Exit codes: 0 none, 1 a high or critical advisory (npm names it), or the registry could not be asked.' ;;
  *)
    echo "tool-script.sh: no script named $name" >&2
    exit 64 ;;
esac

for argument in "$@"; do
  if [ "$argument" = --help ] || [ "$argument" = -h ]; then
    printf '%s\n' "$usage"
    exit 0
  fi
done

case $name in
  test)
    tsc --noEmit -p .
    bash scripts/ensure-test-services.sh
    exec jest "$@" ;;
  typecheck) exec tsc --noEmit -p . "$@" ;;
  node-version) node --version && exec tsx --version ;;
  audit) exec npm audit --omit=dev --audit-level=high "$@" ;;
esac
