package io.rdmamon.protocol.model;

import java.util.regex.Pattern;

/**
 * The naming rules both ends of the wire apply: the agent refuses a name at start-up that the collector would
 * refuse at the hello, and the collector refuses what the agent could never have sent.
 */
public final class Names {
    /**
     * A node name: a letter or digit, then letters, digits, {@code .}, {@code _}, {@code -}; at most 253
     * characters (a DNS name). No {@code :}: node names are Prometheus label values and URL path segments
     * ({@code /api/nodes/{node}}), host names never contain one, and a {@code host:port} typed by mistake
     * should be refused rather than become a node.
     */
    public static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
    /** IFNAMSIZ (16) including the terminating NUL. */
    public static final int MAX_INTERFACE_NAME_LENGTH = 15;

    private Names() {
    }

    public static boolean isNodeName(String name) {
        return name != null && NODE_NAME.matcher(name).matches();
    }

    /** What is wrong with {@code name} as a node name, for error messages. */
    public static String nodeNameRule() {
        return "letters, digits, '.', '_' or '-', starting with a letter or digit, at most 253 characters";
    }

    /**
     * A network interface name the kernel accepts ({@code dev_valid_name} in net/core/dev.c): 1..15 characters,
     * not {@code .} or {@code ..}, no {@code /}, {@code :} or whitespace. That also keeps it from walking out of
     * a host-root directory.
     */
    public static boolean isInterfaceName(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX_INTERFACE_NAME_LENGTH
                && !name.equals(".") && !name.equals("..")
                && name.chars().noneMatch(c -> c == '/' || c == ':' || Character.isWhitespace(c) || c < 0x20);
    }

    public static String interfaceNameRule() {
        return "1-" + MAX_INTERFACE_NAME_LENGTH + " characters, no '/', ':' or whitespace";
    }
}
