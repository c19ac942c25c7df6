#!/usr/bin/env bash
# The README's test command: installs what the tests need on a fresh Debian machine, then
# runs the whole Maven build with every test (`mvn -B verify`).
#
# Real parts the tests drive: ethtool + iproute2 (veth pairs in network namespaces; iproute2's dcb
# under strace for the DCB request bytes),
# libibverbs1 + ibverbs-providers (loaded for real), perftest (its no-device path),
# prometheus + promtool (scrape, rule checks), prometheus-node-exporter (benchmark peer),
# chromium (dashboard tests, driven by Playwright with the system browser), and the Soft-RoCE lab
# (docs/lab.md): qemu-system-x86, busybox-static, cpio, kmod, ibverbs-utils, rdma-core (the VMs' userland is this
# host's), with Debian's kernel package fetched by scripts/lab/prepare.sh (`apt-get download`, cached);
# protobuf-compiler (protoc encodes the kubelet pod-resources answers the agent's gRPC client decodes).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(ethtool iproute2 strace libibverbs1 ibverbs-providers perftest prometheus prometheus-node-exporter chromium maven gcc
          qemu-system-x86 busybox-static cpio kmod ibverbs-utils rdma-core curl protobuf-compiler)
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

exec mvn -B verify "$@"
