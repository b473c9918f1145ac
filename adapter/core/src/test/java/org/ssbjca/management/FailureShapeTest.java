package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.backend.DeadLetter;

/** Dead letters grouped by the shape of their failure, as the console's failures view shows them. */
class FailureShapeTest {

    @Test
    void numbersUuidsHexAndQuotedValuesAreReplaced() {
        assertEquals("java.lang.IllegalStateException: order <n> not found in '…' after <n>ms",
                FailureShape.of("java.lang.IllegalStateException: order 42 not found in 'EU-WEST' after 3000ms"));
        assertEquals("org.acme.Missing: customer <uuid> (\"…\") at <hex>",
                FailureShape.of("org.acme.Missing: customer 0f8fad5b-d9cb-469f-a165-70867728950e (\"Jo\") at 0x1F"));
        assertEquals("java.lang.NumberFormatException: For input string: \"…\"",
                FailureShape.of("java.lang.NumberFormatException: For input string: \"x12\""));
        assertEquals("run <hex> and run <hex> are one, WFLYEJB0034 and utf8 stay",
                FailureShape.of("run 4b6c395a and run e3f19ab2 are one, WFLYEJB0034 and utf8 stay"));
        assertEquals("SSBJCA0042 stays, <n> is a number, so is order-<n>",
                FailureShape.of("SSBJCA0042 stays, 1.5 is a number, so is order-42"));
    }

    @Test
    void theClassIsReadFromTheErrorAsTheReadersRecordIt() {
        assertEquals("java.net.SocketTimeoutException",
                FailureShape.exceptionClass("java.net.SocketTimeoutException: Read timed out"));
        assertEquals("java.lang.NullPointerException", FailureShape.exceptionClass("java.lang.NullPointerException"));
        assertEquals("java.lang.NullPointerException", FailureShape.of("java.lang.NullPointerException"));
        assertEquals("java.lang.NullPointerException: null", FailureShape.of("java.lang.NullPointerException: null"));
        assertEquals("", FailureShape.exceptionClass("the bean marked the transaction for rollback"));
        assertEquals("the bean marked the transaction for rollback",
                FailureShape.of("the bean marked the transaction for rollback"));
        assertEquals(FailureShape.NO_ERROR, FailureShape.of(null));
        assertEquals(FailureShape.NO_ERROR, FailureShape.of("  "));
    }

    @Test
    void lettersOfOneCauseMakeOneGroupWithItsCountAndTimes() {
        DeadLetterGroups groups = new DeadLetterGroups();
        groups.add(List.of(letter(1, "java.lang.IllegalStateException: order 41 not found", "2026-01-01T10:00:00Z"),
                letter(2, "java.net.SocketTimeoutException: Read timed out", "2026-01-01T10:01:00Z"),
                letter(3, "java.lang.IllegalStateException: order 42 not found", "2026-01-01T10:02:00Z")));
        groups.add(List.of(letter(4, "java.lang.IllegalStateException: order 43 not found", "2026-01-01T10:03:00Z")));

        List<DeadLetterGroupInfo> list = groups.list();
        assertEquals(2, list.size());
        DeadLetterGroupInfo orders = list.get(0);
        assertEquals("java.lang.IllegalStateException: order <n> not found", orders.getKey());
        assertEquals("java.lang.IllegalStateException", orders.getExceptionClass());
        assertEquals(3, orders.getCount());
        assertEquals(Instant.parse("2026-01-01T10:00:00Z"), orders.getFirstSeen().toInstant());
        assertEquals(Instant.parse("2026-01-01T10:03:00Z"), orders.getLastSeen().toInstant());
        assertEquals(1, orders.getExampleId());
        assertEquals("java.lang.IllegalStateException: order 41 not found", orders.getExampleError());
        assertEquals(1, list.get(1).getCount());
        assertEquals("java.net.SocketTimeoutException: Read timed out", list.get(1).getKey());
    }

    private static DeadLetter letter(long id, String error, String at) {
        BrokerMessage m = BrokerMessage.builder().conversationHandle(java.util.UUID.randomUUID())
                .messageSequenceNumber(0).messageTypeName("T").build();
        return new DeadLetter(id, "Q", m, 5, error, Instant.parse(at));
    }
}
