package io.rdmamon.agent.sysfs;

import java.util.Map;

/**
 * Where a device's port hw counters can be read in one go instead of file by file (RDMA netlink {@code STAT_GET} on a
 * live host). The sysfs reader asks it for each port with {@code hw_counters/} files and keeps the files' names and
 * order, so that both ways give the same counters.
 */
@FunctionalInterface
public interface PortHwCounterSource {

    /**
     * Every hw counter of {@code port} by name (u64 in a long), or null when they cannot be read this way: the
     * source records why, and the files are read instead.
     */
    Map<String, Long> read(int port);
}
