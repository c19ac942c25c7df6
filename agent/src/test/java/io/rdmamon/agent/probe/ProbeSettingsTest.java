package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.wire.Frame;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The hello advertises each consent on its own, so that the collector plans only what an agent runs. */
class ProbeSettingsTest {
    private static List<String> capabilities(Set<PerftestTest> allowed) {
        return new ProbeSettings(allowed, (test, arguments, onLine) -> null, Path.of("/"), Duration.ofSeconds(60))
                .capabilities();
    }

    @Test
    void eachFlagAddsItsCapability() {
        assertEquals(List.of(), ProbeSettings.disabled().capabilities());
        assertEquals(List.of(Frame.Hello.CAPABILITY_PROBES), capabilities(EnumSet.of(PerftestTest.WRITE_BW)));
        assertEquals(List.of(Frame.Hello.CAPABILITY_PINGMESH), capabilities(EnumSet.of(PerftestTest.SEND_LAT)));
        assertEquals(List.of(Frame.Hello.CAPABILITY_PROBES, Frame.Hello.CAPABILITY_PINGMESH),
                capabilities(EnumSet.allOf(PerftestTest.class)));
    }
}
