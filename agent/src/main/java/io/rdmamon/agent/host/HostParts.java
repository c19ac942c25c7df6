package io.rdmamon.agent.host;

import io.rdmamon.nativeio.devlink.HealthReporter;
import io.rdmamon.protocol.model.GpuTopology;

import java.util.List;
import java.util.Map;

/** The host-wide parts of one sample, filled by the {@link HostSource}s (absent: null). */
public final class HostParts {
    private Map<String, String> ncclConf;
    private GpuTopology topology;
    private List<HealthReporter> healthReporters;

    public void ncclConf(Map<String, String> entries) {
        this.ncclConf = entries;
    }

    public void topology(GpuTopology topology) {
        this.topology = topology;
    }

    public void healthReporters(List<HealthReporter> reporters) {
        this.healthReporters = reporters;
    }

    Map<String, String> ncclConf() {
        return ncclConf;
    }

    GpuTopology topology() {
        return topology;
    }

    List<HealthReporter> healthReporters() {
        return healthReporters;
    }
}
