package io.rdmamon.agent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // the command name (field 2) may contain spaces and parentheses: fields are counted after the last ')'
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
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

    private static long kib(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
}
