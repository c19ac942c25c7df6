package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.function.Consumer;

/**
 * A source of each device, read after its ports' sources (verbs). The subject of its statuses, and of the failed one
 * {@link SourceRun} records when {@link #read} throws, is the device.
 */
public interface DeviceSource extends Source {
    /**
     * Called once a sample before its devices are read (a source that checks a capability once a sample); a throw is
     * recorded for subject {@code host}.
     */
    default void sampleStarted() {
    }

    /** {@code device} completed with this source's part; its statuses go to {@code statuses}. */
    IbDevice read(IbDevice device, Consumer<SourceStatus> statuses) throws Exception;
}
