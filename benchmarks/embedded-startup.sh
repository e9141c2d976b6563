#!/usr/bin/env bash
# Start time of an embedded server (issue 3, item 9): builder start() to PING answered, per run,
# first run in a fresh JVM included. Usage: benchmarks/embedded-startup.sh [runs] [engine]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mvn -B -q -pl integration-tests -am test-compile -Dmdep.outputFile=target/classpath.txt \
  dependency:build-classpath >/dev/null
cp="$(cat integration-tests/target/classpath.txt)"
java -cp "$cp" benchmarks/startup/EmbeddedStartup.java "${1:-10}" "${2:-shared-nothing}"
