package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.resource.spi.ResourceAdapter;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.inbound.table.TableActivationSpec;

/**
 * The activation specs are JavaBeans that the container fills from the text of {@code @ActivationConfigProperty}
 * (and ra.xml): each property has one setter, taking that text, which {@code validate()} checks.
 */
class ActivationSpecSettersTest {

    @ParameterizedTest
    @ValueSource(classes = {ServiceBrokerActivationSpec.class, TableActivationSpec.class})
    void eachPropertyHasOneSetterTakingText(Class<?> spec) {
        List<String> typed = new ArrayList<>();
        for (Method m : spec.getMethods()) {
            if (m.getName().startsWith("set") && m.getParameterCount() == 1
                    && m.getParameterTypes()[0] != String.class && m.getParameterTypes()[0] != ResourceAdapter.class) {
                typed.add(m.getName() + "(" + m.getParameterTypes()[0].getSimpleName() + ")");
            }
        }
        typed.sort(null);
        assertEquals(List.of(), typed, "setters beside the String ones in " + spec.getSimpleName());
    }

    @ParameterizedTest
    @ValueSource(classes = {ServiceBrokerActivationSpec.class, TableActivationSpec.class})
    void theContainerSeesEveryPropertyAsText(Class<?> spec) throws Exception {
        List<String> notText = new ArrayList<>();
        for (PropertyDescriptor p : Introspector.getBeanInfo(spec).getPropertyDescriptors()) {
            Method write = p.getWriteMethod();
            if (write != null && write.getParameterTypes()[0] != ResourceAdapter.class
                    && !Arrays.equals(new Class<?>[] {String.class}, write.getParameterTypes())) {
                notText.add(p.getName() + ": " + write);
            }
        }
        assertEquals(List.of(), notText, "properties the introspector writes with another type");
    }
}
