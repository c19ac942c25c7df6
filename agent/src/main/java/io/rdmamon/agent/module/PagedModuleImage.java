package io.rdmamon.agent.module;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Assembles a module EEPROM image from half-page reads (the ethtool netlink {@code MODULE_EEPROM_GET}), laid out as
 * {@link ModuleDecoder} reads it, so that a module read page by page decodes exactly like one read by the ioctl or
 * from a capture. The pages, in order, as ethtool itself reads them (docs/reference/physical-layer.md §2.3):
 * <ul>
 *   <li>always the lower page and upper page 00h (I2C 0x50, page 0, offsets 0 and 128): byte 0 says what follows;</li>
 *   <li>CMIS (0x18, 0x19, 0x1B, 0x1E, 0x1F, 0x20) unless flat (byte 2 bit 7): pages 01h, 02h, 10h, 11h of bank 0
 *       (lanes 1-8; the decoder reads bank 0 only);</li>
 *   <li>SFF-8636 (0x0C, 0x0D, 0x11) unless flat (byte 2 bit 2): pages 01h, 02h, 03h, the ioctl's 640-byte buffer;</li>
 *   <li>SFF-8472 (0x03) with diagnostics (byte 92 bit 6): A2h (I2C 0x51, offsets 0 and 128), the 512-byte buffer.</li>
 * </ul>
 * Every request keeps the kernel's rules: length 128, a page other than 0 from offset 128. A page after the first two
 * that cannot be read ends the image there (the decoder then notes which page is missing) rather than failing the
 * module: thresholds or lane readings missing, identity and temperature still shown.
 */
public final class PagedModuleImage {
    static final int HALF_PAGE = 128;
    private static final int SFF_I2C = 0x50;
    private static final int SFF_8472_DIAGNOSTICS_I2C = 0x51;

    /** One half-page read. */
    @FunctionalInterface
    public interface HalfPageReader {
        /** {@code 128} bytes at {@code offset} (0 or 128) of {@code page}/{@code bank} at I2C {@code i2cAddress}. */
        byte[] read(int i2cAddress, int page, int bank, int offset) throws IOException;
    }

    private PagedModuleImage() {
    }

    /**
     * The image of the module behind {@code reader}.
     *
     * @throws IOException when the lower page or upper page 00h cannot be read (the reader's exception)
     */
    public static byte[] read(HalfPageReader reader) throws IOException {
        ByteArrayOutputStream image = new ByteArrayOutputStream(6 * HALF_PAGE);
        byte[] lower = reader.read(SFF_I2C, 0, 0, 0);
        image.writeBytes(lower);
        image.writeBytes(reader.read(SFF_I2C, 0, 0, HALF_PAGE));
        int id = Byte.toUnsignedInt(lower[0]);
        int status = Byte.toUnsignedInt(lower[2]);
        try {
            if (ModuleDecoder.isCmis(id)) {
                if ((status & 0x80) == 0) {
                    for (int page : new int[] {0x01, 0x02, 0x10, 0x11}) {
                        image.writeBytes(reader.read(SFF_I2C, page, 0, HALF_PAGE));
                    }
                }
            } else if (ModuleDecoder.isSff8636(id)) {
                if ((status & 0x04) == 0) {
                    for (int page : new int[] {0x01, 0x02, 0x03}) {
                        image.writeBytes(reader.read(SFF_I2C, page, 0, HALF_PAGE));
                    }
                }
            } else if (id == ModuleDecoder.SFP && (Byte.toUnsignedInt(lower[92]) & 0x40) != 0) {
                image.writeBytes(reader.read(SFF_8472_DIAGNOSTICS_I2C, 0, 0, 0));
                image.writeBytes(reader.read(SFF_8472_DIAGNOSTICS_I2C, 0, 0, HALF_PAGE));
            }
        } catch (IOException optionalPageUnreadable) {
            // the image ends before the page that failed; the decoder names what is missing
        }
        return image.toByteArray();
    }
}
