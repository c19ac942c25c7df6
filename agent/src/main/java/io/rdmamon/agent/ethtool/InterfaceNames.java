package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.Names;

import java.io.IOException;

/** Network interface names as the kernel accepts them: the rule is {@link Names#isInterfaceName}. */
public final class InterfaceNames {
    private InterfaceNames() {
    }

    /**
     * Refuses names the kernel would refuse, and with them anything that could walk out of a
     * host-root directory ({@code ..}, {@code /}).
     */
    public static void requireValid(String ifname) throws IOException {
        if (!Names.isInterfaceName(ifname)) {
            throw new IOException("invalid interface name \"" + ifname + "\" (" + Names.interfaceNameRule() + ")");
        }
    }
}
