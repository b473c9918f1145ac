package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.management.ActivationMXBeanTest.pauseFully;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * {@code endConversations} ends endpoints {@value ActivationManagement#END_CHUNK} to a transaction, and its INFO line
 * ({@code SSBJCA0104}) is the record of who cleaned what: when a later transaction fails, the endpoints the earlier
 * ones ended (committed, gone for good) are on record all the same, and the operator's error says how many.
 */
class EndConversationsAuditTest {

    @Test
    void aFailureAfterTheFirstTransactionLeavesTheEndedOnRecord() throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL");
             LogRecords logs = LogRecords.of(ActivationManagement.class)) {
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            pauseFully(mx);
            int n = ActivationManagement.END_CHUNK + 10;
            h.tx(s -> {
                for (int i = 0; i < n; i++) {
                    Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, DialogOptions.defaults());
                    s.send(c.handle(), InboundHarness.REQUEST, new byte[] {1});
                    s.endConversation(c.handle(), null, null);
                }
                return null;
            });
            // the database refuses to remove a target endpoint once the first transaction's have gone
            try (Connection c = h.db.source().open(); Statement s = c.createStatement()) {
                s.execute("CREATE SEQUENCE removed_targets");
                s.execute("CREATE FUNCTION refuse_after_a_chunk() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF nextval('removed_targets') > " + ActivationManagement.END_CHUNK + " THEN"
                        + " RAISE EXCEPTION 'refused by the test'; END IF; RETURN OLD; END $$");
                s.execute("CREATE TRIGGER refuse_after_a_chunk BEFORE DELETE ON ssb.conversation_endpoint FOR EACH ROW"
                        + " WHEN (OLD.service_name = '" + InboundHarness.TARGET + "')"
                        + " EXECUTE FUNCTION refuse_after_a_chunk()");
                c.commit();
            }

            RuntimeException failed = assertThrows(RuntimeException.class,
                    () -> mx.endConversations(InboundHarness.TARGET, "DI", 0, n));
            assertTrue(failed.getMessage().contains(ActivationManagement.END_CHUNK + " ended before"),
                    failed.getMessage());

            List<String> recorded = logs.messages(Level.INFO, "SSBJCA0104");
            assertEquals(1, recorded.size(), recorded.toString());
            assertTrue(recorded.get(0).contains("ended " + ActivationManagement.END_CHUNK + " conversation endpoint(s)"
                    + " of service " + InboundHarness.TARGET + " in state DI"), recorded.get(0));
            assertEquals(List.of(InboundHarness.TARGET + "/DI=10"), mx.listConversations(0).stream()
                    .filter(c -> c.getService().equals(InboundHarness.TARGET))
                    .map(c -> c.getService() + "/" + c.getState() + "=" + c.getCount()).toList(),
                    "the first transaction's endpoints are gone, the second's are not");
        }
    }
}
