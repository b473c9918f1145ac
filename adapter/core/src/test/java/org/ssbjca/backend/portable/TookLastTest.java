package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.Received;

/**
 * What the PostgreSQL RECEIVE tells about the messages it left ({@link PortableSql#receiveNext}'s {@code took_last}),
 * as {@link Received#tookLast} gives it.
 */
class TookLastTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);
    private static final ReceiveRequest ONE = ReceiveRequest.from("QT").top(1);

    @Test
    void onlyAReceiveThatLeftNoMessageWaitingSaysSo() throws Exception {
        try (CountedSession f = CountedSession.declared("took_last")) {
            send(f, 1);
            send(f, 2);
            Received first = f.s.receive(ONE, true, false);
            assertEquals(1, first.messages().size());
            assertFalse(first.tookLast(), "the other group has messages");
            f.commit();
            Received second = f.s.receive(ONE, true, false);
            assertEquals(1, second.messages().size());
            assertFalse(second.tookLast(), "its own group has another message");
            f.commit();
            Received last = f.s.receive(ONE, true, false);
            assertEquals(1, last.messages().size());
            assertTrue(last.tookLast(), "the last message waiting was taken");
            f.c.rollback();
            f.s.afterCompletion(false);
            Received again = f.s.receive(ONE, true, false);
            assertEquals(1, again.messages().size());
            assertTrue(again.tookLast(), "rolled back: the message was there again, and taken again");
            Received nothing = f.s.receive(ONE, true, false);
            assertEquals(0, nothing.messages().size());
            assertFalse(nothing.tookLast(), "a RECEIVE that took nothing knows nothing of what came since");
            assertTrue(last.tookLast(), "a later RECEIVE on the session leaves an earlier one's value as it was");
            f.commit();
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
