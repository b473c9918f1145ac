package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;

/**
 * What the PostgreSQL RECEIVE tells about the messages it left ({@link PortableSql#receiveNext}'s {@code took_last}),
 * as {@link org.ssbjca.backend.BrokerSession#mayHaveLeftMore} gives it once the RECEIVE committed.
 */
class TookLastTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);
    private static final ReceiveRequest ONE = ReceiveRequest.from("QT").top(1);

    @Test
    void onlyACommittedReceiveThatLeftNoMessageWaitingSaysSo() throws Exception {
        try (CountedSession f = CountedSession.declared("took_last")) {
            send(f, 1);
            send(f, 2);
            assertEquals(1, f.s.receive(ONE).size());
            f.commit();
            assertTrue(f.s.mayHaveLeftMore(), "the other group has messages");
            assertEquals(1, f.s.receive(ONE).size());
            f.commit();
            assertTrue(f.s.mayHaveLeftMore(), "its own group has another message");
            assertEquals(1, f.s.receive(ONE).size());
            assertTrue(f.s.mayHaveLeftMore(), "not committed yet");
            f.c.rollback();
            f.s.afterCompletion(false);
            assertTrue(f.s.mayHaveLeftMore(), "rolled back: the message is there again");
            assertEquals(1, f.s.receive(ONE).size());
            f.commit();
            assertFalse(f.s.mayHaveLeftMore(), "the last message waiting was taken");
            assertEquals(0, f.s.receive(ONE).size());
            f.commit();
            assertTrue(f.s.mayHaveLeftMore(), "a RECEIVE that took nothing knows nothing of what came since");
        }
    }

    private static void send(CountedSession f, int messages) throws Exception {
        Conversation d = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
        for (int i = 0; i < messages; i++) {
            f.s.send(d.handle(), "M", BODY);
        }
        f.commit();
    }
}
