package io.rdmamon.protocol.probe;

/**
 * One result row of perftest's bandwidth table, normalised to bits per second at the parser
 * (perftest prints MiB/s, "MB/sec" meaning MiB/s, or Gb/s with {@code --report_gbits}).
 *
 * @param sizeBytes               message size of the row ({@code #bytes})
 * @param iterations              {@code #iterations}
 * @param peakBitsPerSecond       {@code BW peak}, bits per second
 * @param averageBitsPerSecond    {@code BW average}, bits per second
 * @param messageRatePerSecond    {@code MsgRate} (printed in Mpps), messages per second
 */
public record PerftestResult(long sizeBytes, long iterations, double peakBitsPerSecond, double averageBitsPerSecond,
                             double messageRatePerSecond) {
    public PerftestResult {
        if (sizeBytes < 0 || iterations < 0 || !(peakBitsPerSecond >= 0) || !(averageBitsPerSecond >= 0)
                || !(messageRatePerSecond >= 0)) {
            throw new IllegalArgumentException("perftest result with a negative or NaN field: size=" + sizeBytes
                    + " iterations=" + iterations + " peak=" + peakBitsPerSecond + " average=" + averageBitsPerSecond
                    + " msgRate=" + messageRatePerSecond);
        }
    }
}
