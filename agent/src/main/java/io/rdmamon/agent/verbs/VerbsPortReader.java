package io.rdmamon.agent.verbs;

import io.rdmamon.nativeio.verbs.JnrVerbs;
import io.rdmamon.nativeio.verbs.PortAttributes;
import io.rdmamon.nativeio.verbs.Verbs;
import io.rdmamon.nativeio.verbs.VerbsAvailability;
import io.rdmamon.nativeio.verbs.VerbsException;
import io.rdmamon.protocol.model.VerbsPortAttributes;

/**
 * Port attributes from libibverbs for the sample. Verbs being unavailable (no library, a kernel
 * without RDMA: ENOSYS) is normal on many hosts and is reported, never thrown.
 */
public final class VerbsPortReader {
    private final Verbs verbs;
    private final String setupFailure;

    public VerbsPortReader(Verbs verbs) {
        this(verbs, null);
    }

    private VerbsPortReader(Verbs verbs, String setupFailure) {
        this.verbs = verbs;
        this.setupFailure = setupFailure;
    }

    /** The reader over the jnr-ffi libibverbs binding, or one that reports why it could not be set up. */
    public static VerbsPortReader loadNative() {
        try {
            return new VerbsPortReader(new JnrVerbs());
        } catch (RuntimeException | LinkageError e) {
            return new VerbsPortReader(null, "verbs unavailable: " + e.getMessage());
        }
    }

    /** Null when verbs can be queried; otherwise the one-line reason, starting with {@code verbs unavailable: }. */
    public String unavailableReason() {
        if (setupFailure != null) {
            return setupFailure;
        }
        VerbsAvailability availability = verbs.availability();
        return availability.available() ? null : availability.reason();
    }

    public VerbsPortAttributes queryPort(String device, int port) throws VerbsException {
        return toModel(verbs.queryPort(device, port));
    }

    static VerbsPortAttributes toModel(PortAttributes a) {
        return new VerbsPortAttributes(a.state(), a.maxMtu(), a.activeMtu(), a.gidTableLength(),
                a.portCapFlags(), a.lid(), a.smLid(), a.activeWidth(), a.activeSpeed(), a.physState(),
                a.linkLayer());
    }
}
