#!/usr/bin/env bash
# Boots one Soft-RoCE lab VM in the foreground (qemu replaces this shell; kill it to stop the VM).
# usage: vm.sh NAME INDEX DIR TAP COLLECTOR_PORT CPUS KERNEL INITRD
#   DIR   the VM's work folder (/run/lab in the guest): hostname, index, guest.sh, cmd/ (docs/lab.md)
#   TAP   the fabric tap qemu creates in this namespace, for the caller to move onto the lab's bridge
# TCG, not KVM: a KVM guest hangs at boot on these build machines (nested virtualisation without vmx/svm).
set -euo pipefail
[ $# -eq 8 ] || { echo "usage: vm.sh NAME INDEX DIR TAP COLLECTOR_PORT CPUS KERNEL INITRD" >&2; exit 2; }
name="$1" index="$2" dir="$3" tap="$4" collector_port="$5" cpus="$6" kernel="$7" initrd="$8"
# the repository (its jar, the tests' classes) shared again at its own path: the guest puts a tmpfs on /tmp, where a
# clone may live
repo="$(cd "$(dirname "$0")/../.." && pwd)"
exec qemu-system-x86_64 -name "$name" -accel tcg -cpu max -m 1536 -smp "$cpus" \
  -display none -monitor none -serial "file:$dir/console.log" -no-reboot \
  -kernel "$kernel" -initrd "$initrd" -append "console=ttyS0 quiet panic=-1 rdinit=/init rdmamon.repo=$repo" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$repo,mount_tag=repo,security_model=none,readonly=on,multidevs=remap" \
  -virtfs "local,path=$dir,mount_tag=lab,security_model=none" \
  `# restrict=on: the guest reaches nothing through qemu's user network but the collector at 10.0.2.100:9470` \
  -netdev "user,id=control,restrict=on,guestfwd=tcp:10.0.2.100:9470-cmd:/bin/busybox nc 127.0.0.1 $collector_port" \
  -device virtio-net-pci,netdev=control,romfile= \
  -netdev "tap,id=fabric,ifname=$tap,script=no,downscript=no" \
  -device "virtio-net-pci,netdev=fabric,romfile=,mac=$(printf '52:54:00:77:00:%02x' "$index")"
