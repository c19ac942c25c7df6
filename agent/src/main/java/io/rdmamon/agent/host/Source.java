package io.rdmamon.agent.host;

/**
 * One reader of the host (node_exporter's {@code Collector}): its name, and what a failure of it is blamed on. A source
 * reads its part of a port ({@link PortSource}), of a device ({@link DeviceSource}) or of the host ({@link HostSource})
 * and records its statuses; {@link SourceRun} calls it and turns whatever it throws (a bug, a parser refusing odd
 * input, an unchecked I/O error, a stack overflow on deep input) into a failed status of this source naming
 * {@link #culprit}, so one failing source costs only itself and the rest of the sample is still read.
 *
 * <p>Adding a source: one class implementing one of the three, registered in {@link HostReader.Builder#build()}.
 */
public interface Source {
    /** The source in its {@link io.rdmamon.protocol.model.SourceStatus}es and in {@code rdma_source_*{source}}. */
    String name();

    /**
     * The file or call at fault when a read of {@code subject} throws (a capture, an ioctl, a directory): the failed
     * status reads {@code CULPRIT: EXCEPTION}.
     */
    String culprit(String subject);
}
