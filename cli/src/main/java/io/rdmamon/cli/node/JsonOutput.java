package io.rdmamon.cli.node;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.PriorityCounters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * JSON of the model records for {@code --json}: record components only (no derived
 * {@code isX()} getters), absent (null) values omitted, counters as JSON numbers.
 */
final class JsonOutput {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new SimpleModule("unsigned-counters").addSerializer(Long.class, new UnsignedLong()))
            .addMixIn(EthtoolStats.class, EthtoolStatsProperties.class);

    private JsonOutput() {
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * {@link EthtoolStats} is not a record (its typed view is derived from its raw statistics, never given): its
     * accessors are named here, so that it prints as the record it was, raw statistics and typed view.
     */
    @JsonPropertyOrder({"netdev", "raw", "priorities", "pfcEnabledPriorities", "vportRdma", "pauseStormWarningEvents",
            "pauseStormErrorEvents"})
    private abstract static class EthtoolStatsProperties {
        @JsonProperty
        abstract String netdev();

        @JsonProperty
        abstract Map<String, Long> raw();

        @JsonProperty
        abstract List<PriorityCounters> priorities();

        @JsonProperty
        abstract SortedSet<Integer> pfcEnabledPriorities();

        @JsonProperty
        abstract Map<String, Long> vportRdma();

        @JsonProperty
        abstract Long pauseStormWarningEvents();

        @JsonProperty
        abstract Long pauseStormErrorEvents();
    }

    /**
     * The model keeps unsigned 64-bit counters in {@code Long}; a value at or above 2^63 must print
     * as the large positive number it is, not as a negative one. No Long in the model is signed.
     */
    private static final class UnsignedLong extends JsonSerializer<Long> {
        @Override
        public void serialize(Long value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value >= 0) {
                gen.writeNumber(value);
            } else {
                gen.writeNumber(Long.toUnsignedString(value));
            }
        }
    }
}
