package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The start-up refusals: what each says to run and what it costs. */
class BrokerIdentityTest {

    private static final UUID FIRST = UUID.fromString("5ad4e4a3-0c59-4a0f-9a8c-7f2b6d9c1e01");
    private static final UUID OTHER = UUID.fromString("8e7f6a5b-1c2d-4e3f-8a9b-0c1d2e3f4a02");

    @Test
    void aDisabledBrokerIsRefusedNamingEnableBrokerAndNewBrokerWithTheirCosts() {
        String refusal = new BrokerIdentity(true).refusal(new BrokerState("Orders", false, FIRST));
        assertTrue(refusal.contains("is_broker_enabled = 0"), refusal);
        assertTrue(refusal.contains("ALTER DATABASE [Orders] SET ENABLE_BROKER WITH ROLLBACK IMMEDIATE: it keeps the"
                + " broker id and every conversation"), refusal);
        assertTrue(refusal.contains("error 9772"), refusal);
        assertTrue(refusal.contains("ALTER DATABASE [Orders] SET NEW_BROKER WITH ROLLBACK IMMEDIATE"), refusal);
        assertTrue(refusal.contains("every conversation of the database ended"), refusal);
    }

    @Test
    void theFirstIdIsKeptAndAnotherRefused() {
        BrokerIdentity identity = new BrokerIdentity(true);
        assertNull(identity.refusal(new BrokerState("Orders", true, FIRST)));
        assertNull(identity.refusal(new BrokerState("Orders", true, FIRST)));
        String refusal = identity.refusal(new BrokerState("Orders", true, OTHER));
        assertTrue(refusal.contains("changed from " + FIRST + " to " + OTHER), refusal);
        assertTrue(refusal.contains("BROKER_INSTANCE = '" + OTHER + "'"), refusal);
        assertEquals(FIRST, identity.seen(), "the first stays the one expected");
    }

    @Test
    void aNameWithABracketIsQuoted() {
        String refusal = new BrokerIdentity(true).refusal(new BrokerState("Or]ders", false, null));
        assertTrue(refusal.contains("ALTER DATABASE [Or]]ders] SET ENABLE_BROKER"), refusal);
    }
}
