#!/usr/bin/env python3
"""What one simulated node of `rdmamon demo` costs (docs/performance.md, "Demo fleet size").

usage: scripts/demo-fleet-size.py cli/target/rdmamon.jar 20,50,100 [INTERVAL [JVM FLAGS...]]

For each size: starts `java -jar JAR demo --nodes N --listen 127.0.0.1:0 --interval INTERVAL`, times the welcome
and the moment /api/nodes lists all N nodes (3 min at most), waits 5 s, then over 20 s reads the process's CPU
(/proc/PID/stat), the collector's rdmamon_collector_samples_ingested_total (samples per second: N per interval
when the fleet keeps up, more while agents replay after a lost connection), RSS and threads (/proc/PID/status),
the heap after a full GC (jcmd GC.run, GC.heap_info), and the time from SIGTERM to exit. One JSON line per size;
the demo's log goes to /tmp/demo-N.err. Needs jcmd (the JDK) and nothing else.
"""
import subprocess, time, json, re, sys, os, urllib.request, signal
jar = sys.argv[1]; sizes = [int(x) for x in sys.argv[2].split(',')]
interval = sys.argv[3] if len(sys.argv) > 3 else '1s'
extra = sys.argv[4:] 
HZ = os.sysconf('SC_CLK_TCK')
def cpu(pid):
    f = open(f'/proc/{pid}/stat').read().rsplit(')',1)[1].split()
    return (int(f[11]) + int(f[12])) / HZ
def status(pid):
    s = open(f'/proc/{pid}/status').read()
    rss = int(re.search(r'VmRSS:\s+(\d+)', s).group(1)) // 1024
    thr = int(re.search(r'Threads:\s+(\d+)', s).group(1))
    return rss, thr
def load(): return open('/proc/loadavg').read().split()[0]
for n in sizes:
    t0 = time.time()
    p = subprocess.Popen(['java'] + extra + ['-jar', jar, 'demo', '--nodes', str(n), '--listen', '127.0.0.1:0', '--interval', interval],
                         stdout=subprocess.PIPE, stderr=open(f'/tmp/demo-{n}.err', 'w'), text=True)
    api = None
    for line in p.stdout:
        if 'nodes API' in line:
            api = line.split()[-1]; break
    t_welcome = time.time() - t0
    reg = None; count = 0
    while time.time() - t0 < 180:
        try:
            count = len(json.load(urllib.request.urlopen(api, timeout=10))['nodes'])
        except Exception as e:
            pass
        if count >= n:
            reg = time.time() - t0; break
        time.sleep(0.5)
    base = api.rsplit('/api/', 1)[0]
    def ingested():
      try:
        for l in urllib.request.urlopen(base + '/metrics', timeout=20).read().decode().splitlines():
            if l.startswith('rdmamon_collector_samples_ingested_total'):
                return float(l.split()[-1])
      except Exception:
        return float('nan')
      return 0.0
    time.sleep(5)
    s0 = ingested(); c0 = cpu(p.pid); w0 = time.time(); l0 = load()
    time.sleep(20)
    s1 = ingested(); c1 = cpu(p.pid); w1 = time.time()
    rss, thr = status(p.pid)
    heap = subprocess.run(['jcmd', str(p.pid), 'GC.run'], capture_output=True, text=True)
    time.sleep(1)
    hi = subprocess.run(['jcmd', str(p.pid), 'GC.heap_info'], capture_output=True, text=True).stdout
    m = re.search(r'used (\d+)K', hi)
    used = int(m.group(1)) // 1024 if m else -1
    ts = time.time(); p.send_signal(signal.SIGTERM)
    try:
        p.wait(60); stop = time.time() - ts
    except subprocess.TimeoutExpired:
        stop = -1; p.kill()
    print(json.dumps(dict(nodes=n, interval=interval, welcome_s=round(t_welcome,1), registered=count,
        all_registered_s=None if reg is None else round(reg,1), cpu_cores=round((c1-c0)/(w1-w0),2), samples_per_s=round((s1-s0)/(w1-w0),1),
        cpu_ms_per_sample=round(1000*(c1-c0)/max(1,s1-s0),1),
        rss_mib=rss, threads=thr, heap_after_gc_mib=used, stop_s=round(stop,1), load=l0)), flush=True)
