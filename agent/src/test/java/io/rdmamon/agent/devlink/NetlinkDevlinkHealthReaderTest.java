package io.rdmamon.agent.devlink;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.NativeSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The build machine's kernel: its reporters, or unsupported when it has no devlink family; never a failure. */
class NetlinkDevlinkHealthReaderTest {
    @Test
    void theKernelsAnswerIsReportersOrUnsupported() throws IOException {
        assumeTrue(NativeSupport.unsupportedReason().isEmpty(), "no native support");
        try {
            assertNotNull(NetlinkDevlinkHealthReader.loadNative().reporters());
        } catch (UnsupportedCapabilityException e) {
            assertTrue(e.getMessage().contains("ENOENT") || e.getMessage().contains("refused"), e.getMessage());
        }
    }
}
