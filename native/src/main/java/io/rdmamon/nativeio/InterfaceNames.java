package io.rdmamon.nativeio;

import java.nio.charset.StandardCharsets;

/** Network interface names as the kernel's {@code dev_valid_name()} accepts them, checked before any system call. */
public final class InterfaceNames {
    /** {@code IFNAMSIZ}: names are at most 15 bytes plus the NUL. */
    public static final int IFNAMSIZ = 16;

    private InterfaceNames() {
    }

    /**
     * Why the kernel would refuse {@code ifname} (a name that is too long would otherwise be truncated into another
     * interface's name), or null when it is valid.
     */
    public static String problem(String ifname) {
        if (ifname == null || ifname.isEmpty()) {
            return "it is empty";
        } else if (ifname.getBytes(StandardCharsets.UTF_8).length >= IFNAMSIZ) {
            return "it is longer than " + (IFNAMSIZ - 1) + " bytes";
        } else if (ifname.equals(".") || ifname.equals("..")) {
            return "'.' and '..' are not interface names";
        } else if (ifname.chars().anyMatch(c -> c == '/' || c == ':' || c == 0 || Character.isWhitespace(c))) {
            return "it contains '/', ':', NUL or whitespace";
        }
        return null;
    }
}
