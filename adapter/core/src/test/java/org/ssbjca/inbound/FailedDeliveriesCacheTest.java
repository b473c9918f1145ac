package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;

/**
 * The activation's cache of "are failed deliveries recorded for this queue?" (asked of the database at most every
 * 5 s): a failure recorded by one reader must never be hidden by another reader's look that began before it.
 */
class FailedDeliveriesCacheTest {

    @Test
    void aFailureRecordedWhileAnotherReaderLooksIsNotHidden() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            BrokerMessageListener bean = m -> { };
            EndpointActivation a = new EndpointActivation(h.ra, new FakeEndpointFactory(BrokerMessageListener.class, bean, true,
                    h.context.transactions()), h.spec());

            // reader 1 looks in the database, which has no failure yet; meanwhile reader 2 records one
            boolean seenByReader1 = a.mayHaveAttempts(() -> {
                a.attemptsRecorded();
                return false;
            });

            assertTrue(a.mayHaveAttempts(() -> false), "the failure reader 2 recorded is known until the next look "
                    + "(reader 1 saw " + seenByReader1 + ")");
        }
    }

    @Test
    void aLookThatFindsNothingIsTrustedUntilTheNextLook() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            BrokerMessageListener bean = m -> { };
            EndpointActivation a = new EndpointActivation(h.ra, new FakeEndpointFactory(BrokerMessageListener.class, bean, true,
                    h.context.transactions()), h.spec());

            assertFalse(a.mayHaveAttempts(() -> false));
            assertFalse(a.mayHaveAttempts(() -> true), "not asked again within 5 s");
            a.attemptsRecorded();
            assertTrue(a.mayHaveAttempts(() -> false), "a failure recorded here counts at once");
        }
    }
}
