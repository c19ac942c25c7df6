package io.rdmamon.collector.diagnosis.engine;

import java.util.List;
import java.util.stream.Collectors;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.PortWorkload;

/**
 * The workloads a port-scoped diagnosis hits, for its evidence ({@code "; hits: ml/train-llama-0 (12 QPs), ..."}): the
 * on-call's next question after "what is wrong with this port" is "which jobs does it hurt". Kernel QPs are no one's
 * job, and QPs whose process has exited belong to no running job: both are left out. Empty when the port holds no workload's QPs or they were not read.
 */
final class WorkloadHits {
    private WorkloadHits() {
    }

    static String of(IbDevice device, int port) {
        if (device.resources() == null) {
            return "";
        }
        List<PortWorkload> hit = device.resources().workloadsOn(port).stream().filter(w -> !w.isKernel() && !w.isExited()).toList();
        return hit.isEmpty() ? "" : hit.stream().map(PortWorkload::describe).collect(Collectors.joining(", ", "; hits: ", ""));
    }
}
