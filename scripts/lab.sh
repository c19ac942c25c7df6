#!/usr/bin/env bash
# Watch rdmamon on a real kernel RDMA stack without RDMA hardware (docs/lab.md): boots a small Soft-RoCE fleet of
# qemu VMs (Debian's kernel, rdma_rxe, this host's userland read-only over 9p) joined by a bridge inside a network
# namespace, starts a collector on this host's loopback and an agent in every VM, keeps real ib_write_bw traffic
# going between two of them, and prints the dashboard URL. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

usage() {
  cat <<'USAGE'
usage: scripts/lab.sh [--vms N] [--port PORT] [--loss PERCENT]
  --vms N          VMs to boot, 1 to 3 (default 3): lab-vm1, lab-vm2, … with rxe0 on 10.77.0.N
  --port PORT      the collector's port on 127.0.0.1 (default 9470)
  --loss PERCENT   netem loss on lab-vm1's fabric link, to watch transport_loss (default none)
Needs root (network namespace, taps), qemu-system-x86, busybox-static, cpio, kmod, rdma-core, ibverbs-utils,
perftest and Java 17 + Maven (the jar is built when missing); the kernel comes from `apt-get download`.
USAGE
}
vms=3 port=9470 loss=""
while [ $# -gt 0 ]; do
  case "$1" in
    --vms) vms="${2:?--vms needs a number}"; shift 2 ;;
    --port) port="${2:?--port needs a number}"; shift 2 ;;
    --loss) loss="${2:?--loss needs a percentage}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "lab.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$vms" =~ ^[1-3]$ ]] || { echo "lab.sh: --vms must be 1, 2 or 3, got '$vms'" >&2; exit 2; }
[[ "$port" =~ ^[0-9]+$ ]] || { echo "lab.sh: --port must be a number, got '$port'" >&2; exit 2; }
[ -z "$loss" ] || [[ "$loss" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "lab.sh: --loss must be a percentage, got '$loss'" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "lab.sh: needs root (network namespace and taps)" >&2; exit 2; }
for tool in ip rdma ib_write_bw java; do
  command -v "$tool" >/dev/null || { echo "lab.sh: '$tool' is missing (see --help for the packages)" >&2; exit 3; }
done

jar="$repo/cli/target/rdmamon.jar"
[ -f "$jar" ] || { echo "lab.sh: building $jar"; mvn -B -q -DskipTests package; }
eval "$(scripts/lab/prepare.sh)"   # kernel, initrd, version

id="$(printf '%04x' $((RANDOM)))"
ns="rdmamon-lab-$id"
work="$(mktemp -d /tmp/rdmamon-lab.XXXXXX)"
pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  ip netns del "$ns" 2>/dev/null || true
  echo "lab: stopped; logs in $work"
}
trap cleanup EXIT INT TERM

ip netns add "$ns"
ip -n "$ns" link add labbr0 type bridge
ip -n "$ns" link set labbr0 up

java -jar "$jar" collector --listen "127.0.0.1:$port" > "$work/collector.log" 2>&1 &
pids+=($!)

agent="java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx192m -jar $jar agent --collector http://10.0.2.100:9470"
for i in $(seq 1 "$vms"); do
  dir="$work/vm$i"
  mkdir -p "$dir/cmd"
  echo "lab-vm$i" > "$dir/hostname"
  echo "$i" > "$dir/index"
  cp scripts/lab/guest.sh "$dir/guest.sh"
  echo "setsid $agent --node lab-vm$i --interval 1s --allow-probes > /run/lab/agent.log 2>&1 < /dev/null &" \
    > "$dir/cmd/0001.sh"
  tap="rlab$id$i"
  scripts/lab/vm.sh "lab-vm$i" "$i" "$dir" "$tap" "$port" 1 "$kernel" "$initrd" > "$dir/qemu.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do ip link show "$tap" >/dev/null 2>&1 && break; sleep 0.1; done
  ip link set "$tap" netns "$ns"
  ip -n "$ns" link set "$tap" master labbr0 up
done

# Real traffic: lab-vm1 writes to lab-vm2 for 10 s every 20 s (a server loop on lab-vm2).
if [ "$vms" -ge 2 ]; then
  echo "(while true; do ib_write_bw -d rxe0 -x 1 -D 10 -F -u 18 > /dev/null 2>&1; done) &" > "$work/vm2/cmd/0002.sh"
  echo "(while true; do sleep 10; ib_write_bw -d rxe0 -x 1 -D 10 -F -u 18 10.77.0.2 > /dev/null 2>&1; done) &" \
    > "$work/vm1/cmd/0002.sh"
fi
[ -z "$loss" ] || echo "tc qdisc add dev eth1 root netem loss $loss%" > "$work/vm1/cmd/0003.sh"

echo "lab: booting $vms VM(s) under TCG; agents start in about a minute (work folder $work)"
for _ in $(seq 1 300); do
  nodes="$(curl -fsS "http://127.0.0.1:$port/api/nodes" 2>/dev/null | grep -o '"lab-vm[0-9]"' | sort -u | wc -l || true)"
  [ "${nodes:-0}" -ge "$vms" ] && break
  sleep 1
done
echo "lab: $nodes of $vms agent(s) streaming"
echo "lab: dashboard http://127.0.0.1:$port/   metrics http://127.0.0.1:$port/metrics   (Ctrl-C stops the lab)"
echo "lab: run a command in a VM:  echo 'ip link set eth1 down' > $work/vm$vms/cmd/0100.sh   (output in 0100.out)"
wait
