package io.rdmamon.agent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time and resident memory of a process from {@code /proc/<pid>/stat} and {@code /proc/<pid>/status}.
 * CPU is utime + stime of all threads, live and exited, so a JVM's GC and JIT threads count too.
 *
 * @param cpuMillis utime + stime in milliseconds (clock-tick resolution, 10 ms at USER_HZ 100)
 * @param rssKiB    VmRSS
 * @param hwmKiB    VmHWM, the peak resident set
 */
public record ProcessUsage(long cpuMillis, long rssKiB, long hwmKiB) {
    /** USER_HZ: the unit of utime/stime. Fixed at 100 on every Linux architecture the JDK runs on. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    public static ProcessUsage of(long pid) throws IOException {
        long ticks = ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        long rss = 0;
        long hwm = 0;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = kib(line);
            } else if (line.startsWith("VmHWM:")) {
                hwm = kib(line);
            }
        }
        return new ProcessUsage(ticks * 1000 / CLOCK_TICKS_PER_SECOND, rss, hwm);
    }

    public static ProcessUsage self() throws IOException {
        return of(ProcessHandle.current().pid());
    }

    /**
     * CPU milliseconds of the live threads of {@code pid} by thread name with digits replaced by {@code #}
     * ({@code C2 CompilerThre#}, {@code GC Thread##}, {@code vert.x-worker-thread-#}). Exited threads are missing.
     */
    public static Map<String, Long> threadCpuMillis(long pid) throws IOException {
        return threadCpuMillis(pid, true);
    }

    /**
     * As {@link #threadCpuMillis(long)}; with {@code mergeNumbered} false, every thread on its own, as
     * {@code name/tid} (the kernel cuts names to 15 characters, so several event loops share one).
     */
    public static Map<String, Long> threadCpuMillis(long pid, boolean mergeNumbered) throws IOException {
        Map<String, Long> byName = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread exited between the listing and the read
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                name = mergeNumbered ? name.replaceAll("[0-9]", "#") : name + "/" + task.getFileName();
                byName.merge(name, ticks(stat) * 1000 / CLOCK_TICKS_PER_SECOND, Long::sum);
            }
        }
        return byName;
    }

    private static long ticks(String stat) {
        String[] fields = fieldsFromState(stat);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
    }

    /**
     * The fields of a {@code /proc/<pid>/stat} line from field 3 (state) on: the command name (field 2) may contain
     * spaces and parentheses, so they are counted after the last ')'. Field N is at index N - 3 (proc(5)).
     */
    static String[] fieldsFromState(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    private static long kib(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
}
