package io.rdmamon.agent.ethtool;

import java.io.IOException;

/** Network interface names as the kernel accepts them ({@code dev_valid_name} in net/core/dev.c). */
public final class InterfaceNames {
    /** IFNAMSIZ (16) including the terminating NUL. */
    static final int MAX_LENGTH = 15;

    private InterfaceNames() {
    }

    /**
     * Refuses names the kernel would refuse, and with them anything that could walk out of a
     * host-root directory ({@code ..}, {@code /}).
     */
    public static void requireValid(String ifname) throws IOException {
        if (ifname == null || ifname.isEmpty() || ifname.length() > MAX_LENGTH
                || ifname.equals(".") || ifname.equals("..")
                || ifname.chars().anyMatch(c -> c == '/' || c == ':' || Character.isWhitespace(c) || c < 0x20)) {
            throw new IOException("invalid interface name \"" + ifname + "\" (1-" + MAX_LENGTH
                    + " characters, no '/', ':' or whitespace)");
        }
    }
}
