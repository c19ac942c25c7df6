package io.rdmamon.agent.probe;

import java.util.List;

/**
 * The options of an {@code ib_write_bw} or {@code ib_send_lat} command line, as {@link PerftestArguments} writes
 * them, read back by the programs that stand in for perftest (the demo's simulated one and the tests' stand-in),
 * so that they take exactly the real binaries' argv. Defaults are perftest's.
 *
 * @param device        {@code -d}
 * @param port          {@code -i}
 * @param gidIndex      {@code -x}, null when absent
 * @param sizeBytes     {@code -s}
 * @param durationSeconds {@code -D}
 * @param qps           {@code -q}
 * @param bidirectional {@code -b}
 * @param tcpPort       {@code -p}; perftest's default 18515 when absent
 * @param reportGbits   {@code --report_gbits}
 * @param rdmaCm        {@code -R}
 * @param server        the server's address (the last, positional argument); null for the server side
 * @param iterations    {@code -n}; perftest's default 1000 when absent
 * @param qpTimeout     {@code -u}; perftest's default 14 when absent
 * @param trafficClass  {@code --tclass}; null when absent
 * @param events        {@code -e} (sleep on completion events)
 * @param unsorted      {@code -U} (every round trip, in the order measured)
 */
public record PerftestCommandLine(String device, int port, Integer gidIndex, long sizeBytes, int durationSeconds, int qps,
                                  boolean bidirectional, int tcpPort, boolean reportGbits, boolean rdmaCm, String server,
                                  int iterations, int qpTimeout, Integer trafficClass, boolean events,
                                  boolean unsorted) {
    /** perftest's default TCP port ({@code DEF_PORT}). */
    public static final int DEFAULT_TCP_PORT = 18515;
    /** perftest's default {@code -n} for the tests other than ib_write_bw ({@code DEF_ITERS}). */
    public static final int DEFAULT_ITERATIONS = 1000;
    /** perftest's default {@code -u} ({@code DEF_QP_TIME}): 4.096 µs × 2^14, about 67 ms. */
    public static final int DEFAULT_QP_TIMEOUT = 14;

    /**
     * @throws IllegalArgumentException naming the option that is unknown, lacks its value or has a bad one
     */
    public static PerftestCommandLine parse(List<String> argv) {
        String device = null;
        String server = null;
        int port = 1;
        Integer gid = null;
        long size = 65_536;
        int duration = 5;
        int qps = 1;
        int tcpPort = DEFAULT_TCP_PORT;
        boolean bidirectional = false;
        boolean gbits = false;
        boolean rdmaCm = false;
        int iterations = DEFAULT_ITERATIONS;
        int qpTimeout = DEFAULT_QP_TIMEOUT;
        Integer trafficClass = null;
        boolean events = false;
        boolean unsorted = false;
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            switch (arg) {
                case "-d" -> device = value(argv, ++i, arg);
                case "-i" -> port = intValue(argv, ++i, arg);
                case "-x" -> gid = intValue(argv, ++i, arg);
                case "-s" -> size = longValue(argv, ++i, arg);
                case "-D" -> duration = intValue(argv, ++i, arg);
                case "-q" -> qps = intValue(argv, ++i, arg);
                case "-p" -> tcpPort = intValue(argv, ++i, arg);
                case "-n" -> iterations = intValue(argv, ++i, arg);
                case "-u" -> qpTimeout = intValue(argv, ++i, arg);
                case "--tclass" -> trafficClass = intValue(argv, ++i, arg);
                case "-e" -> events = true;
                case "-U" -> unsorted = true;
                case "-b" -> bidirectional = true;
                case "-R" -> rdmaCm = true;
                case "--report_gbits" -> gbits = true;
                case "-F" -> {
                    // don't warn about the CPU frequency: nothing to do
                }
                default -> {
                    if (arg.startsWith("-") || server != null) {
                        throw new IllegalArgumentException("unsupported perftest argument '" + arg + "'");
                    }
                    server = arg;
                }
            }
        }
        return new PerftestCommandLine(device, port, gid, size, duration, qps, bidirectional, tcpPort, gbits, rdmaCm,
                server, iterations, qpTimeout, trafficClass, events, unsorted);
    }

    public boolean isServer() {
        return server == null;
    }

    private static String value(List<String> argv, int index, String option) {
        if (index >= argv.size()) {
            throw new IllegalArgumentException("perftest option " + option + " needs a value");
        }
        return argv.get(index);
    }

    private static int intValue(List<String> argv, int index, String option) {
        return Math.toIntExact(longValue(argv, index, option));
    }

    private static long longValue(List<String> argv, int index, String option) {
        String text = value(argv, index, option);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("perftest option " + option + " wants a number, got '" + text + "'");
        }
    }
}
