package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.text.WireText;

/** A diags tool's output that does not read as it should: names the tool, the line and what is wrong with it. */
final class FabricTextException extends Exception {
    FabricTextException(String tool, int lineNumber, String line, String reason) {
        super(tool + " output line " + lineNumber + ": " + reason + ": " + WireText.quote(line));
    }
}
