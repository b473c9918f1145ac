package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.InvalidPropertyException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ssbjca.docs.Docs;

/**
 * The table of activation properties in docs/reference/activation-properties.md, read from the page itself: each
 * property's default is the activation spec's, and each range it gives is the one validation accepts (both ends
 * accepted, one step beyond either refused with a message naming the property).
 */
class ActivationPropertiesReadmeTest {

    /** A row: {@code | `name` | default | meaning |}. */
    private static final Pattern ROW = Pattern.compile("^\\| `([a-zA-Z]+)` \\| ([^|]*) \\| (.*) \\|$");
    /**
     * The property's range in the meaning: {@code 1 to 256}, {@code 0.0 to 1.0}, {@code `reconnectInitialMillis` to
     * 3600000}; not a range of something the value holds ({@code n from 0 to 255}).
     */
    private static final Pattern RANGE = Pattern.compile("(?<!from )(-?\\d[\\d.]*|`[a-zA-Z]+`) to (\\d[\\d.]*)");

    private record Property(String name, String defaultText, String meaning) {
    }

    @Test
    void everyDefaultIsTheSpecs() throws Exception {
        List<Property> properties = readmeProperties();
        assertTrue(properties.size() >= 18, "the table was read: " + properties);
        int checked = 0;
        for (Property p : properties) {
            Matcher literal = Pattern.compile("^`([^`]+)`$").matcher(p.defaultText());
            if (!literal.matches()) {
                continue; // (required), (none), the adapter's, 10 x `redeliveryDelay`: read in the tests of each
            }
            assertEquals(literal.group(1), String.valueOf(getter(p.name()).invoke(new ServiceBrokerActivationSpec())),
                    p.name() + "'s default");
            checked++;
        }
        assertTrue(checked >= 15, checked + " defaults checked");
    }

    @Test
    void everyRangeIsTheOneValidationAccepts() throws Exception {
        int checked = 0;
        for (Property p : readmeProperties()) {
            Matcher range = RANGE.matcher(p.meaning());
            if (!range.find()) {
                continue;
            }
            BigDecimal max = new BigDecimal(range.group(2));
            BigDecimal step = max.scale() > 0 ? new BigDecimal("0.1") : BigDecimal.ONE;
            accepted(p.name(), max.toPlainString());
            refused(p.name(), max.add(step).toPlainString());
            if (!range.group(1).startsWith("`")) {
                BigDecimal min = new BigDecimal(range.group(1));
                accepted(p.name(), min.toPlainString());
                refused(p.name(), min.subtract(step).toPlainString());
            }
            checked++;
        }
        assertTrue(checked >= 10, checked + " ranges checked");
    }

    private static void accepted(String property, String value) throws Exception {
        ServiceBrokerActivationSpec spec = spec(property, value);
        assertDoesNotThrow(spec::validate, property + "=" + value);
    }

    private static void refused(String property, String value) throws Exception {
        ServiceBrokerActivationSpec spec = spec(property, value);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate,
                property + "=" + value);
        assertTrue(e.getMessage().contains("'" + property + "'"), e.getMessage());
    }

    private static ServiceBrokerActivationSpec spec(String property, String value) throws Exception {
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setQueue("Q");
        // the properties whose range starts at another's: that one at its least, or this one at its most
        if (property.equals("maxRedeliveryDelay")) {
            spec.setRedeliveryDelay("1");
        } else if (property.equals("reconnectInitialMillis")) {
            spec.setReconnectMaxMillis("3600000");
        }
        try {
            ServiceBrokerActivationSpec.class.getMethod("set" + capitalized(property), String.class).invoke(spec,
                    value);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
        return spec;
    }

    private static Method getter(String property) throws NoSuchMethodException {
        return ServiceBrokerActivationSpec.class.getMethod("get" + capitalized(property));
    }

    private static String capitalized(String property) {
        return Character.toUpperCase(property.charAt(0)) + property.substring(1);
    }

    /** @return the rows of the activation properties page's table */
    private static List<Property> readmeProperties() throws IOException {
        String section = Docs.page("docs/reference/activation-properties.md");
        List<Property> properties = new ArrayList<>();
        section.lines().map(ROW::matcher).filter(Matcher::matches)
                .forEach(m -> properties.add(new Property(m.group(1), m.group(2).strip(), m.group(3))));
        return properties;
    }
}
