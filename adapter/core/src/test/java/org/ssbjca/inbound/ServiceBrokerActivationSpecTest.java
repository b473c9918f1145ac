package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.InvalidPropertyException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.backend.BackendKind;

/** Every activation property is checked, and a bad value is refused with a message naming the property and range. */
class ServiceBrokerActivationSpecTest {

    @Test
    void theDefaultsAreValid() throws Exception {
        ServiceBrokerActivationSpec spec = spec(s -> { });
        assertDoesNotThrow(spec::validate);
        assertEquals(1, new ActivationValues(spec).maxReaders());
        assertEquals(1, new ActivationValues(spec).receiveBatchSize());
        assertEquals(5000L, new ActivationValues(spec).waitTimeoutMillis());
        assertEquals(3, new ActivationValues(spec).maxDeliveryAttempts());
        assertTrue(new ActivationValues(spec).priorityEnabled());
        assertEquals(0.5, new ActivationValues(spec).reconnectJitter());
        assertEquals(BackendKind.H2, spec.database().kind());
    }

    @Test
    void theQueueIsRequired() {
        assertRefused("queue", "required", s -> s.setQueue(null));
        assertRefused("queue", "required", s -> s.setQueue("  "));
    }

    @Test
    void numbersOutsideTheirRangeAreRefused() {
        assertRefused("maxReaders", "between 1 and 256", s -> s.setMaxReaders("0"));
        assertRefused("maxReaders", "between 1 and 256", s -> s.setMaxReaders("257"));
        assertRefused("receiveBatchSize", "between 1 and 10000", s -> s.setReceiveBatchSize("0"));
        assertRefused("waitTimeout", "between 100 and 600000", s -> s.setWaitTimeout("50"));
        assertRefused("maxDeliveryAttempts", "between 1 and 100", s -> s.setMaxDeliveryAttempts("0"));
        assertRefused("reconnectInitialMillis", "between 10 and 600000", s -> s.setReconnectInitialMillis("1"));
        assertRefused("reconnectMaxMillis", "between 500 and", s -> s.setReconnectMaxMillis("100"));
        assertRefused("reconnectJitter", "between 0.0 and 1.0", s -> s.setReconnectJitter("1.5"));
        assertRefused("transactionTimeout", "between 0 and 86400", s -> s.setTransactionTimeout("-1"));
    }

    /**
     * WildFly sets each property from its text; a text that is not a value of the property's type must fail the
     * deployment, not leave the default in place (with typed properties, {@code maxReaders=abc} gave 1 reader).
     */
    @Test
    void valuesOfTheWrongTypeAreRefused() {
        assertRefused("maxReaders", "a whole number between 1 and 256, was 'abc'", s -> s.setMaxReaders("abc"));
        assertRefused("maxReaders", "a whole number between 1 and 256, was '2.5'", s -> s.setMaxReaders("2.5"));
        assertRefused("waitTimeout", "a whole number between 100 and 600000, was '5s'", s -> s.setWaitTimeout("5s"));
        assertRefused("priorityEnabled", "true or false, was 'maybe'", s -> s.setPriorityEnabled("maybe"));
        assertRefused("commitBeforeDelivery", "true or false, was 'yes'", s -> s.setCommitBeforeDelivery("yes"));
        assertRefused("reconnectJitter", "between 0.0 and 1.0, was 'NaN'", s -> s.setReconnectJitter("NaN"));
        assertRefused("transactionTimeout", "a whole number", s -> s.setTransactionTimeout(""));
    }

    @Test
    void textIsReadAsWildFlyGivesIt() throws Exception {
        ServiceBrokerActivationSpec spec = spec(s -> {
            s.setMaxReaders(" 4 ");
            s.setPriorityEnabled("FALSE");
            s.setReconnectJitter("0.25");
        });
        spec.validate();
        assertEquals(4, new ActivationValues(spec).maxReaders());
        assertFalse(new ActivationValues(spec).priorityEnabled());
        assertEquals(0.25, new ActivationValues(spec).reconnectJitter());
    }

    @Test
    void enumeratedValuesAreChecked() {
        assertRefused("deadLetter", "TABLE or TABLE_AND_END_CONVERSATION", s -> s.setDeadLetter("DROP"));
        assertRefused("handleSystemMessages", "END or DELIVER", s -> s.setHandleSystemMessages("IGNORE"));
    }

    @Test
    void sqlServerQueuesAllowAtMostFourAttempts() {
        assertRefused("maxDeliveryAttempts", "1 and 4 on SQL Server", s -> {
            s.setConnectionUrl("jdbc:sqlserver://db;databaseName=x");
            s.setMaxDeliveryAttempts("5");
        });
    }

    /** The limit holds too when the bean's database is the adapter's default (its URL inherited, not on the spec). */
    @Test
    void sqlServerQueuesAllowAtMostFourAttemptsAlsoWithTheAdaptersUrl() throws Exception {
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl("jdbc:sqlserver://db;databaseName=x");
        ServiceBrokerActivationSpec five = spec(s -> s.setMaxDeliveryAttempts("5"));
        five.setResourceAdapter(ra);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, five::validate);
        assertTrue(e.getMessage().contains("'maxDeliveryAttempts' must be between 1 and 4 on SQL Server"),
                e.getMessage());
        ServiceBrokerActivationSpec four = spec(s -> s.setMaxDeliveryAttempts("4"));
        four.setResourceAdapter(ra);
        assertDoesNotThrow(four::validate);
    }

    @Test
    void anUnsupportedUrlIsRefused() {
        assertRefused("connectionUrl", "jdbc:sqlserver:", s -> s.setConnectionUrl("jdbc:oracle:thin:@x"));
        assertRefused("connectionUrl", "no.such.property", s -> s.setConnectionUrl("jdbc:h2:${no.such.property}/db"));
    }

    @Test
    void connectionPropertiesDefaultToTheResourceAdapters() throws Exception {
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl("jdbc:postgresql://db/broker");
        ra.setUser("broker");
        ServiceBrokerActivationSpec spec = spec(s -> { });
        spec.setResourceAdapter(ra);
        assertEquals("jdbc:postgresql://db/broker", spec.database().url());
        assertEquals("broker", spec.database().user());
        spec.setUser("other");
        assertEquals("other", spec.database().user());
    }

    private static ServiceBrokerActivationSpec spec(Consumer<ServiceBrokerActivationSpec> change) {
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setQueue("TargetQueue");
        change.accept(spec);
        return spec;
    }

    private static void assertRefused(String property, String range, Consumer<ServiceBrokerActivationSpec> change) {
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, () -> spec(change).validate());
        assertTrue(e.getMessage().contains("'" + property + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(range), e.getMessage());
    }
}
