package io.rdmamon.agent.sysfs;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes {@link SysfsParsers} with the text of one sysfs attribute, trimmed as {@link SysfsFiles#readOnce}
 * hands it over. {@link InfiniBandClassReader} and {@link NetdevResolver} catch {@link IllegalArgumentException}
 * around the parsers that refuse text, so that is the only refusal allowed; the helpers they call unguarded
 * ({@code isEmptyGid}, {@code ipv4OfGid} on a parsed GID, {@code macOfEui64Guid} on any node_guid) must not throw.
 */
class SysfsParsersFuzzTest {

    @FuzzTest
    void attributeTextParsesOrIsRefusedWithAnIllegalArgument(byte[] attribute) {
        String text = new String(attribute, StandardCharsets.UTF_8).strip();
        parsedOrRefused(() -> SysfsParsers.parseIdName(text));
        parsedOrRefused(() -> SysfsParsers.parseRateBytesPerSecond(text));
        parsedOrRefused(() -> SysfsParsers.parseCounter(text));
        parsedOrRefused(() -> SysfsParsers.parseDevPort(text));
        parsedOrRefused(() -> SysfsParsers.parseDevId(text));
        String gid = parsedOrRefused(() -> SysfsParsers.parseGid(text));
        if (gid != null && !SysfsParsers.isEmptyGid(gid)) {
            String ipv4 = SysfsParsers.ipv4OfGid(gid);
            assertTrue(ipv4 == null || ipv4.matches("\\d{1,3}(\\.\\d{1,3}){3}"), () -> gid + " → IPv4 " + ipv4);
        }
        String mac = SysfsParsers.macOfEui64Guid(text);
        assertTrue(mac == null || mac.matches("[0-9a-f]{2}(:[0-9a-f]{2}){5}"), () -> text + " → MAC " + mac);
    }

    private static <T> T parsedOrRefused(Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException refused) {
            return null;
        }
    }
}
