#!/usr/bin/env bash
# The README's test commands (docs/testing.md). Installs what the tests need on a fresh Debian machine, then runs
# Maven:
#   bash scripts/test.sh         the ten-minute loop: every module's unit and module tests and the fast cross-module
#                                tests (`mvn -B -T 2 verify -DskipFuzz`; classes tagged @Slow are left out)
#   bash scripts/test.sh --all   every tier (`mvn -B -T 2 verify -Dall`): also the Soft-RoCE lab suites, the soak, the
#                                fuzzing pass, the cluster, Prometheus and scenario ITs; what .ci/run runs
# Other arguments go to Maven (e.g. `-pl collector -am`, `-Dtest=...`).
#
# Real parts the tests drive: ethtool + iproute2 (veth pairs in network namespaces; iproute2's dcb
# under strace for the DCB request bytes),
# libibverbs1 + ibverbs-providers (loaded for real), perftest (its no-device path),
# prometheus + promtool (scrape, rule checks), prometheus-alertmanager (amtool: deploy/alertmanager),
# prometheus-node-exporter (benchmark peer),
# chromium (dashboard tests, driven by Playwright with the system browser),
# protobuf-compiler (protoc encodes the kubelet pod-resources answers the agent's gRPC client decodes),
# ibsim-utils + opensm + infiniband-diags (a simulated InfiniBand subnet the fabric sweeper is proven on);
# for --all, the Soft-RoCE lab (docs/lab.md): qemu-system-x86, busybox-static, cpio, kmod, ibverbs-utils, rdma-core
# (the VMs' userland is this host's), with Debian's kernel package fetched by scripts/lab/prepare.sh
# (`apt-get download`, cached).
set -euo pipefail
cd "$(dirname "$0")/.."

tier=fast
maven_args=()
for arg in "$@"; do
  case "$arg" in
    --all) tier=all ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) maven_args+=("$arg") ;;
  esac
done

packages=(ethtool iproute2 strace libibverbs1 ibverbs-providers perftest prometheus prometheus-alertmanager prometheus-node-exporter
          chromium maven gcc
          curl protobuf-compiler ibsim-utils opensm infiniband-diags)
if [ "$tier" = all ]; then
  packages+=(qemu-system-x86 busybox-static cpio kmod ibverbs-utils rdma-core)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Playwright for Java must use Debian's chromium, never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export RDMAMON_CHROMIUM="${RDMAMON_CHROMIUM:-/usr/bin/chromium}"

# Two modules at a time (-T 2, docs/testing.md): the agent and the collector do not depend on each other, and their
# tests wait on timers much of their time, so they build and test side by side.
if [ "$tier" = all ]; then
  exec mvn -B -T 2 verify -Dall ${maven_args[@]+"${maven_args[@]}"}
fi
exec mvn -B -T 2 verify -DskipFuzz ${maven_args[@]+"${maven_args[@]}"}
