package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JfrProfile}'s delivery steps name methods the adapter has: a renamed method would drop out of its step. */
class JfrProfileTest {

    @Test
    void everyAdapterMethodAStepNamesExists() throws Exception {
        List<String> frames = JfrProfile.STEPS.values().stream().flatMap(List::stream)
                .filter(f -> f.startsWith("org.ssbjca.")).toList();
        assertTrue(!frames.isEmpty(), "the steps name the adapter's methods");
        for (String frame : frames) {
            int dot = frame.lastIndexOf('.');
            Class<?> type = Class.forName(frame.substring(0, dot));
            String method = frame.substring(dot + 1);
            assertTrue(Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(method)),
                    frame + " names no method of " + type.getName());
        }
    }
}
