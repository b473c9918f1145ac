package org.ssbjca.brokers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void expandsSystemPropertiesWithDefaults() {
        System.setProperty("ssbjca.test.dir", "/srv/data");
        try {
            assertEquals("jdbc:h2:/srv/data/broker", Config.expand("jdbc:h2:${ssbjca.test.dir}/broker"));
            assertEquals("jdbc:h2:./x/broker", Config.expand("jdbc:h2:${ssbjca.unset.dir:./x}/broker"));
            assertEquals("plain", Config.expand("plain"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Config.expand("${ssbjca.unset.dir}"));
            assertTrue(e.getMessage().contains("ssbjca.unset.dir"), e.getMessage());
        } finally {
            System.clearProperty("ssbjca.test.dir");
        }
    }
}
