package io.rdmamon.nativeio.verbs;

import java.util.List;

/**
 * libibverbs queries. Implementations: {@link JnrVerbs} (loads {@code libibverbs.so.1}).
 *
 * <p>Verbs being unavailable (library missing, kernel without RDMA support: ENOSYS, no
 * devices) is a value ({@link #availability()}), never a crash.
 */
public interface Verbs {

    /** Whether verbs can be used here, and if not, why ({@code "verbs unavailable: <reason>"}). */
    VerbsAvailability availability();

    /** Names of the devices libibverbs lists; empty when none. */
    List<String> deviceNames() throws VerbsException;

    /** {@code ibv_query_device} of the named device. */
    DeviceAttributes queryDevice(String device) throws VerbsException;

    /** {@code ibv_query_port} (the exported compat symbol, 48-byte struct). */
    PortAttributes queryPort(String device, int port) throws VerbsException;

    /** {@code _ibv_query_gid_ex}; empty entries give {@code null}. */
    GidEntryAttributes queryGid(String device, int port, int index) throws VerbsException;
}
