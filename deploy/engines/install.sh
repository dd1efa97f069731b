#!/usr/bin/env bash
# Installs the real servers that some specs run (docs/testing.md) into ENGINES_DIR, by default .cache/engines at
# the repository's root (git-ignored):
#   kafka-<version>/lib      Apache Kafka's broker classpath, from Maven Central through kafka-pom.xml (mvn)
#   seaweedfs-<version>/weed SeaweedFS, an S3-compatible store, built with Go from seaweedfs/go.mod
# The versions are pinned in those two files. An engine already installed from the same file is left as it is,
# so a second run takes a second or two. Needs java 17+ and mvn (Debian: default-jdk-headless maven) and Go at
# least the version seaweedfs/go.mod names. `npm start` and `npm test` without these engines need none of this.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "${ENGINES_DIR:-$root/.cache/engines}"
# Absolute, since Maven resolves a relative output directory against the POM's folder.
engines="$(cd "${ENGINES_DIR:-$root/.cache/engines}" && pwd)"

need() {
  command -v "$1" >/dev/null || {
    echo "deploy/engines/install.sh: $1 is not on PATH ($2)" >&2
    exit 1
  }
}

# Apache Kafka: the jars of kafka_2.13 and a log4j backend, copied by Maven. `installed` is a copy of the POM
# they came from, written last: a POM that changed (a new version) installs again.
kafka_version="$(sed -n 's:.*<kafka\.version>\(.*\)</kafka\.version>.*:\1:p' "$here/kafka-pom.xml")"
kafka_dir="$engines/kafka-$kafka_version"
if cmp -s "$here/kafka-pom.xml" "$kafka_dir/installed" 2>/dev/null; then
  echo "Apache Kafka $kafka_version: installed in $kafka_dir"
else
  need java "a JDK 17 or later; Debian: apt-get install default-jdk-headless"
  need mvn "Debian: apt-get install maven"
  start=$SECONDS
  rm -rf "$kafka_dir"
  # Maven 3.8 prints colour resets even in batch mode: dropped, its messages kept.
  mvn -q -B -f "$here/kafka-pom.xml" dependency:copy-dependencies -DoutputDirectory="$kafka_dir/lib" 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g'
  cp "$here/kafka-pom.xml" "$kafka_dir/installed"
  echo "Apache Kafka $kafka_version: installed in $kafka_dir ($((SECONDS - start)) s)"
fi

# SeaweedFS: `go install <module>@<version>` refuses a module with replace directives, so seaweedfs/ is a module
# that requires it with its replace lines copied, and builds its `weed` command from there. The build cache
# sits beside the binary, so a rebuild after a version change compiles only what changed.
sw_mod="$here/seaweedfs/go.mod"
sw_version="$(awk '$1 == "github.com/seaweedfs/seaweedfs" { print $2 }' "$sw_mod")"
sw_dir="$engines/seaweedfs-$sw_version"
if [ -x "$sw_dir/weed" ] && cmp -s "$sw_mod" "$sw_dir/go.mod" 2>/dev/null; then
  echo "SeaweedFS $sw_version: installed in $sw_dir"
else
  need go "Go $(awk '$1 == "go" { print $2 }' "$sw_mod") or later"
  start=$SECONDS
  rm -rf "$sw_dir"
  mkdir -p "$sw_dir"
  echo "SeaweedFS $sw_version: building (minutes the first time)"
  # GOTOOLCHAIN=local: an older Go fails here, saying so, instead of fetching a toolchain.
  (cd "$here/seaweedfs" &&
    GOCACHE="$engines/go-build" GOTOOLCHAIN=local GOFLAGS='-mod=readonly -buildvcs=false' \
      go build -trimpath -o "$sw_dir/weed.partial" github.com/seaweedfs/seaweedfs/weed)
  mv "$sw_dir/weed.partial" "$sw_dir/weed"
  cp "$sw_mod" "$sw_dir/go.mod"
  echo "SeaweedFS $sw_version: installed in $sw_dir ($((SECONDS - start)) s)"
fi
