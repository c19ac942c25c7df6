package io.rdmamon.agent.sysfs;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PciParsersTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "2.5 GT/s PCIe|2500000000",
            "5.0 GT/s PCIe|5000000000",
            "16.0 GT/s PCIe|16000000000",
            "32.0 GT/s PCIe|32000000000",
            "64.0 GT/s PCIe|64000000000",
            "8 GT/s|8000000000",
            "2.5 GT/s|2500000000",
            "Unknown|null",
            "Unknown speed|null"})
    void linkSpeedsInBothFormats(String text, Long expected) {
        assertEquals(expected, PciParsers.parseLinkSpeed(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "16 GT/s PCIe Gen4|expected \"<n> GT/s PCIe\", \"<n> GT/s\" or \"Unknown\", got \"16 GT/s PCIe Gen4\"",
            "fast|expected \"<n> GT/s PCIe\", \"<n> GT/s\" or \"Unknown\", got \"fast\"",
            "0.0000000001 GT/s|link speed is not a whole number of transfers per second within 64 bits: \"0.0000000001 GT/s\""})
    void badSpeedsNameTheText(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> PciParsers.parseLinkSpeed(text)).getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {"16|16", "8|8", "1|1", "0|null", "32|32"})
    void widths(String text, Integer expected) {
        assertEquals(expected, PciParsers.parseLinkWidth(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"x16", "-1", "64", "255"})
    void badWidthsAreRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> PciParsers.parseLinkWidth(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // current kernels: one short name per bit, then the total
            "'RxErr 3\nBadTLP 1\nBadDLLP 0\nRollover 0\nTimeout 2\nNonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 6'|6",
            "'Undefined 0\nDLP 0\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 1\nCmpltAbrt 0\nUnxCmplt 0\nRxOF 0\nMalfTLP 0\nECRC 0\nUnsupReq 0\nACSViol 0\nUncorrIntErr 0\nBlockedTLP 0\nAtomicOpBlocked 0\nTLPBlockedErr 0\nPoisonTLPBlocked 0\nTOTAL_ERR_NONFATAL 1'|1",
            // unnamed bits and a u64 total
            "'dev_cor_errs_bit[12] 4\nTOTAL_ERR_COR 18446744073709551615'|-1",
            // 4.19-era long names with spaces
            "'Receiver Error 2\nBad TLP 0\nRELAY_NUM Rollover 0\nTOTAL_ERR_COR 2'|2",
            // no TOTAL line: the lines summed
            "'Receiver Error 2\nBad DLLP 5'|7"})
    void aerTotals(String text, long expected) {
        assertEquals(expected, PciParsers.parseAerTotal(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "'RxErr three'|expected a count at the end of \"RxErr three\"",
            "'12'|expected \"<error name> <count>\" lines, got \"12\""})
    void badAerFilesNameTheLine(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> PciParsers.parseAerTotal(text)).getMessage());
    }

    /** A {@code \n} in the table stands for a line break of the file. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "'DRIVER=mlx5_core\\nPCI_CLASS=20000\\nPCI_ID=15B3:1017\\nPCI_SUBSYS_ID=15B3:0020\\nPCI_SLOT_NAME=0000:3b:00.0\\nMODALIAS=pci:v000015B3d00001017sv000015B3sd00000020bc02sc00i00'|0000:3b:00.0",
            "'PCI_SLOT_NAME=0000:a1:00.1'|0000:a1:00.1",
            "'DRIVER=virtio_net\\nMODALIAS=virtio:d00000001v00001AF4'|null",
            "''|null"})
    void ueventSlotNames(String text, String expected) {
        assertEquals(expected, PciParsers.parseUeventSlotName(text.replace("\\n", "\n")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "PCI_SLOT_NAME=3b:00.0|expected PCI_SLOT_NAME=<dddd:bb:dd.f>, got \"PCI_SLOT_NAME=3b:00.0\"",
            "PCI_SLOT_NAME=|expected PCI_SLOT_NAME=<dddd:bb:dd.f>, got \"PCI_SLOT_NAME=\""})
    void ueventSlotNamesThatAreNoAddress(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> PciParsers.parseUeventSlotName(text))
                .getMessage());
    }
}
