#!/bin/bash
# Runs in every lab VM (scripts/lab/init chroots into the host's userland and starts it from the VM's work folder,
# /run/lab): brings up the control link (eth0, qemu's user network: the host's collector is 10.0.2.100:9470) and
# the fabric link (eth1, a tap on the lab's bridge, 10.77.0.<index>/24), creates Soft-RoCE rxe0 on the fabric link,
# writes `ready`, then starts each command the host drops into cmd/ (N.sh -> N.out, N.rc) until `stop` appears.
set -u
# init starts this with busybox's environment; the host's userland keeps tc, rdma and friends in sbin
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
cd /run/lab
index="$(cat index)"
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2 dev eth0
ip link set eth1 up && ip addr add "10.77.0.$index/24" dev eth1
if ! rdma link add rxe0 type rxe netdev eth1; then
  echo "rdma link add rxe0 failed" > failed
  exit 1
fi
mkdir -p cmd
# The loop below runs all the VM's life, busy or idle, and under TCG every instruction of it costs the host: with a
# `sleep 0.2` process (fork, exec, the dynamic loader over 9p) five times a second and a stat over 9p of every command
# ever started, an idle VM took 41 % of a host core (6 % since). It pauses with bash's own `read -t` on a FIFO nobody
# writes to, and remembers the commands it started.
mkfifo /tmp/guest-pause
exec {pause}<> /tmp/guest-pause
declare -A started=()
touch ready
while [ ! -e stop ]; do
  for script in cmd/*.sh; do
    [ -e "$script" ] && [ -z "${started[$script]:-}" ] || continue
    started[$script]=1
    n="${script%.sh}"
    touch "$n.started"
    # each in the background: a command that hangs does not stop the next one (a thread dump, a kill) from running
    ( bash "$script" > "$n.out" 2>&1 < /dev/null; echo $? > "$n.rc.tmp" && mv "$n.rc.tmp" "$n.rc" ) &
  done
  read -r -t 0.2 -u "$pause" || true
done
