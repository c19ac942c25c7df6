package io.rdmamon.agent.module;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;

/**
 * What a source's refusal becomes in the reader's result, and so in the {@code module} status: no module is no
 * status, a module this host cannot read is unsupported, anything else failed.
 */
class ModuleReaderOutcomeTest {

    private static ModuleEepromSource refusing(String kind) {
        return ifname -> {
            throw switch (kind) {
                case "none" -> new ModuleEepromSource.NoModuleException(ifname + ": no module cage");
                case "unsupported" -> new UnsupportedCapabilityException(ifname + ": the module refuses the ioctl");
                default -> new IOException(ifname + ": EPERM");
            };
        };
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "none        | ''                           | ''",
            "unsupported | ''                           | ethtool -m eth1: eth1: the module refuses the ioctl",
            "failed      | ethtool -m eth1: eth1: EPERM | ''"})
    void aRefusalIsNoModuleUnsupportedOrFailed(String kind, String failure, String unsupported) {
        ModuleReader.Result result = new ModuleReader(refusing(kind), null, () -> 0L)
                .read("eth1", (call, source, ifname) -> source.read(ifname));

        assertEquals(new ModuleReader.Result(null, failure.isEmpty() ? null : failure,
                unsupported.isEmpty() ? null : unsupported), result);
    }
}
