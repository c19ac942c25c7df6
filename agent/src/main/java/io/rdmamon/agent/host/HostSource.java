package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.SourceStatus;

import java.util.function.Consumer;

/** A source of the host as a whole ({@code etc/nccl.conf}, the GPU↔NIC topology), read after the devices. */
public interface HostSource extends Source {
    /** The subject of the failed status {@link SourceRun} records when {@link #read} throws. */
    String subject();

    /** Puts this source's part into {@code parts}; its statuses go to {@code statuses}. */
    void read(HostParts parts, Consumer<SourceStatus> statuses) throws Exception;
}
