package io.rdmamon.protocol.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * One line saying why a document is not JSON, for a reader that names the file itself. Jackson's own message runs to
 * several lines and repeats the source; and not every refusal has a location: a document past
 * {@code StreamReadConstraints} (5,000 nested arrays, a 2,000-digit number) is refused with none.
 */
public final class JsonSyntax {
    private JsonSyntax() {
    }

    /** {@code REASON (line N)}, or {@code REASON} alone when Jackson knows no line. */
    public static String describe(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        String reason = message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("");
        int marker = reason.indexOf(" (start marker");
        if (marker >= 0) {
            reason = reason.substring(0, marker);
        }
        JsonLocation location = e.getLocation();
        return location == null || location.getLineNr() < 1 ? reason : reason + " (line " + location.getLineNr() + ")";
    }
}
