package io.rdmamon.agent.host;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.devlink.DevlinkHealthReader;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * The NICs' devlink health reporters ({@link DevlinkHealthReader}), placed on the devices by
 * {@link io.rdmamon.agent.devlink.HealthPlacement} once the devices are read. A host without devlink, or an agent the
 * kernel refuses, is unsupported (how the host is), not failed, and is not asked again (a kernel does not grow a devlink
 * family while it runs: one family lookup per sample would be a socket a second for nothing); a dump or capture that
 * fails is a failed status naming it, and the sample carries no reporters.
 */
final class DevlinkHealthSource implements HostSource {
    static final String NAME = "devlink";

    private final DevlinkHealthReader reader;
    /** Why the host has no devlink health, once told; null until then. */
    private volatile String unsupported;

    DevlinkHealthSource(DevlinkHealthReader reader) {
        this.reader = reader;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String subject() {
        return reader.subject();
    }

    @Override
    public String culprit(String subject) {
        return reader.subject();
    }

    @Override
    public void read(HostParts parts, Consumer<SourceStatus> statuses) {
        if (unsupported != null) {
            statuses.accept(SourceStatus.unsupported(NAME, subject(), unsupported));
            return;
        }
        try {
            parts.healthReporters(reader.reporters());
            statuses.accept(SourceStatus.ok(NAME, subject()));
        } catch (UnsupportedCapabilityException e) {
            unsupported = e.getMessage();
            statuses.accept(SourceStatus.unsupported(NAME, subject(), unsupported));
        } catch (IOException e) {
            statuses.accept(SourceStatus.failed(NAME, subject(), e.getMessage()));
        }
    }
}
