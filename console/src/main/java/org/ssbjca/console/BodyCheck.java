package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.lang.annotation.Annotation;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Every JSON body the API reads: one that is empty, not JSON, or JSON of another type than the method takes (an
 * object where an array is expected, a number, {@code null}) is refused with 400 naming what was expected (the
 * parameter's {@link Body}), never the JSON provider's 500. The body read is kept as the request property
 * {@value #READ} for {@link ChangeAudit}.
 */
@Provider
public class BodyCheck implements ReaderInterceptor {

    /** The request property holding the body read, a {@link JsonValue}. */
    static final String READ = "org.ssbjca.console.body";
    /** The longest body read: 255 group ids, the longest list, take about 10 KB. */
    static final int MAX_BYTES = 64 * 1024;

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        byte[] bytes = context.getInputStream().readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            throw refused(context, "the body is longer than " + MAX_BYTES + " bytes");
        }
        context.setInputStream(new ByteArrayInputStream(bytes));
        Object body;
        try {
            body = context.proceed();
        } catch (IOException | RuntimeException e) {
            throw refused(context, what(bytes));
        }
        if (body == null) {
            throw refused(context, "the body is empty");
        }
        if (body instanceof JsonValue json) {
            context.setProperty(READ, json);
        }
        return body;
    }

    /** @return what a body the JSON provider could not read as the parameter's type is */
    private static String what(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return "the body is empty";
        }
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return "the body is a JSON " + reader.readValue().getValueType().toString().toLowerCase(Locale.ROOT);
        } catch (RuntimeException e) {
            return "the body is not JSON (" + e.getMessage() + ")";
        }
    }

    private static BadRequestException refused(ReaderInterceptorContext context, String why) {
        return new BadRequestException("expected " + expected(context.getAnnotations(), context.getType()) + "; "
                + why);
    }

    /**
     * @param annotations the body parameter's annotations
     * @param type the parameter's type
     * @return the parameter's {@link Body}, or the JSON type it takes
     */
    static String expected(Annotation[] annotations, Class<?> type) {
        if (annotations != null) {
            for (Annotation a : annotations) {
                if (a instanceof Body b) {
                    return b.value();
                }
            }
        }
        return JsonArray.class.isAssignableFrom(type) ? "a JSON array" : "a JSON object";
    }
}
