package org.ssbjca.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.ResourceAdapterInternalException;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.FakeBootstrapContext;

/** docs/reference/adapter-properties.md: {@code fallbackPollMillis} defaults to 1000 and is 10 to 60000. */
class ResourceAdapterPropertiesTest {

    @Test
    void fallbackPollMillisDefaultsTo1000() {
        assertEquals(1000L, new ServiceBrokerResourceAdapter().getFallbackPollMillis());
    }

    @Test
    void fallbackPollMillisOutsideItsRangeFailsTheStartNamingIt() {
        for (long bad : new long[] {9, 60_001}) {
            ServiceBrokerResourceAdapter ra = adapter(bad);
            ResourceAdapterInternalException e = assertThrows(ResourceAdapterInternalException.class,
                    () -> ra.start(new FakeBootstrapContext()), String.valueOf(bad));
            assertTrue(e.getMessage().contains("fallbackPollMillis must be between 10 and 60000"), e.getMessage());
        }
    }

    @Test
    void fallbackPollMillisAtEitherEndStarts() throws Exception {
        for (long good : new long[] {10, 60_000}) {
            ServiceBrokerResourceAdapter ra = adapter(good);
            ra.start(new FakeBootstrapContext());
            ra.stop();
        }
    }

    private static ServiceBrokerResourceAdapter adapter(long fallbackPollMillis) {
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl("jdbc:h2:mem:ra-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ra.setFallbackPollMillis(fallbackPollMillis);
        return ra;
    }
}
