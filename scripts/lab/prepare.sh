#!/usr/bin/env bash
# Prepares the Soft-RoCE lab's boot files (docs/lab.md): Debian's kernel package, fetched with `apt-get download`
# and unpacked, and an initramfs of busybox-static and the modules a lab VM loads. Everything is cached under
# RDMAMON_LAB_CACHE (default ~/.cache/rdmamon-lab); nothing is committed.
#
# Prints KEY=VALUE lines on stdout: kernel, initrd, version. Exits 3 with one line on stderr naming what is
# missing when the lab cannot run on this machine (qemu, /dev/net/tun, a tool, the kernel package, a module).
set -euo pipefail

cache="${RDMAMON_LAB_CACHE:-${HOME:-/root}/.cache/rdmamon-lab}"
here="$(cd "$(dirname "$0")" && pwd)"
# Loaded in the guest in dependency order (modules.dep): virtio transport and 9p for the host's root, the NICs,
# Soft-RoCE (crc32_generic first: rxe needs the crc32 shash and the guest has no modprobe to find it), rdma_cm
# for perftest's -R, veth for a second link, netem for a bad link (the build hosts' own kernels lack it).
wanted=(virtio_pci virtio_net 9pnet_virtio 9p crc32_generic ib_core ib_uverbs rdma_rxe rdma_ucm veth sch_netem)

fail() { echo "lab: $*" >&2; exit 3; }
for tool in apt-get dpkg-deb depmod cpio gzip; do
  command -v "$tool" >/dev/null || fail "cannot prepare: '$tool' is not installed (packages apt, dpkg, kmod, cpio, gzip)"
done
[ -x /bin/busybox ] || fail "cannot prepare: /bin/busybox is missing (package busybox-static)"
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 is not installed (package qemu-system-x86)"
[ -e /dev/net/tun ] || fail "/dev/net/tun is missing: the lab joins its VMs through taps"

mkdir -p "$cache"
cd "$cache"

# The kernel: the version linux-image-amd64 depends on today, or the newest one cached when apt cannot answer.
# `apt-get download` prints its progress ("Get:1 …", "Fetched …") on stdout, so its output is discarded and the
# file it wrote is found by name afterwards; only the name is captured.
version=""
if apt-get download linux-image-amd64 >/dev/null 2>&1 \
    && meta="$(ls -t linux-image-amd64_*.deb 2>/dev/null | head -1)" && [ -n "$meta" ]; then
  package="$(dpkg-deb -f "$meta" Depends | sed -n 's/^\(linux-image-[0-9][^ ,]*\).*/\1/p')"
  version="${package#linux-image-}"
  if [ ! -f "kernel-$version/done" ]; then
    rm -rf "kernel-$version" && mkdir -p "kernel-$version"
    apt-get download "$package" >/dev/null 2>&1 || fail "cannot prepare: 'apt-get download $package' failed"
    dpkg-deb -x "$(ls -t "${package}"_*.deb | head -1)" "kernel-$version/root"
    depmod -b "kernel-$version/root" "$version"
    touch "kernel-$version/done"
  fi
else
  version="$(ls -td kernel-*/done 2>/dev/null | head -1 | sed 's|^kernel-\(.*\)/done$|\1|')"
  [ -n "$version" ] || fail "cannot prepare: 'apt-get download linux-image-amd64' failed and no kernel is cached in $cache"
fi
root="$cache/kernel-$version/root"
modules="$root/lib/modules/$version"
kernel="$root/boot/vmlinuz-$version"
[ -f "$kernel" ] || fail "cannot prepare: the kernel package has no $kernel"

# Named by what it is made of, so that a change of the init or of the module list makes a new one.
initrd="$cache/kernel-$version/initrd-$(cat "$here/init" "$here/prepare.sh" | sha1sum | cut -c1-12).gz"
if [ ! -f "$initrd" ]; then
  staging="$(mktemp -d "$cache/initrd.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  mkdir -p "$staging"/{bin,proc,sys,dev,host,modules}
  cp /bin/busybox "$staging/bin/busybox"
  cp "$here/init" "$staging/init"
  chmod 755 "$staging/init"
  # Each wanted module after its dependencies: modules.dep lists a module's dependencies with the ones it needs
  # directly first, so they are loaded from the end of the list (as modprobe does).
  declare -A seen=()
  order=()
  add() {
    local name="$1" line dep i
    local -a deps
    [ -n "${seen[$name]:-}" ] && return 0
    line="$(grep -E "(^|/)$name\.ko(\.xz|\.zst)?:" "$modules/modules.dep" | head -1 || true)"
    if [ -z "$line" ]; then
      grep -qE "(^|/)$name\.ko" "$modules/modules.builtin" && { seen[$name]=1; return 0; }
      fail "cannot prepare: module $name is neither in $modules/modules.dep nor built in"
    fi
    seen[$name]=1
    deps=(${line#*:})
    for ((i=${#deps[@]}-1; i>=0; i--)); do
      dep="$(basename "${deps[$i]}")"; add "${dep%%.ko*}"
    done
    order+=("${line%%:*}")
  }
  for m in "${wanted[@]}"; do add "$m"; done
  for path in "${order[@]}"; do
    case "$path" in
      *.ko) cp "$modules/$path" "$staging/modules/" ;;
      *.ko.xz) xz -dc "$modules/$path" > "$staging/modules/$(basename "${path%.xz}")" ;;
      *.ko.zst) zstd -qdc "$modules/$path" > "$staging/modules/$(basename "${path%.zst}")" ;;
    esac
    basename "${path%%.ko*}" >> "$staging/modules/order"
  done
  (cd "$staging" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp"
  mv "$initrd.tmp" "$initrd"
fi

echo "version=$version"
echo "kernel=$kernel"
echo "initrd=$initrd"
