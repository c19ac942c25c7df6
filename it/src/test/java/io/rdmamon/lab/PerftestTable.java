package io.rdmamon.lab;

/** Reads perftest's result row with {@code --report_gbits}: {@code #bytes #iterations BW-peak BW-average MsgRate}. */
final class PerftestTable {
    private PerftestTable() {
    }

    /** The {@code BW average[Gb/sec]} of the row under the header. */
    static double averageGbps(String output) {
        String[] lines = output.split("\\n");
        for (int i = 0; i < lines.length - 1; i++) {
            if (lines[i].contains("BW average[Gb/sec]")) {
                return Double.parseDouble(lines[i + 1].trim().split("\\s+")[3]);
            }
        }
        throw new AssertionError("no Gb/s result row in perftest's output: " + output);
    }
}
