package io.rdmamon.protocol.exposition;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** gzip of {@code /metrics} bodies (the collector's and the agent's): when the scraper accepts it, and how. */
public final class ExpositionGzip {
    private static final int GZIP_BUFFER_BYTES = 64 * 1024;

    private ExpositionGzip() {
    }

    /** True when {@code acceptEncoding} lists gzip (or *) without {@code q=0}. */
    public static boolean accepted(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
            String[] params = part.split(";");
            String coding = params[0].trim();
            if (coding.equals("gzip") || coding.equals("*")) {
                boolean refused = false; // only an explicit q=0 refuses
                for (int i = 1; i < params.length; i++) {
                    refused |= params[i].replace(" ", "").matches("q=0(\\.0*)?");
                }
                return !refused;
            }
        }
        return false;
    }

    /**
     * gzip at the fastest level: the exposition is very repetitive, so level 1 already shrinks it about
     * tenfold, at several times the speed of the default level (docs/performance.md).
     */
    public static OutputStream fastest(OutputStream out) throws IOException {
        return new GZIPOutputStream(out, GZIP_BUFFER_BYTES) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        };
    }
}
