package kadireal;

import java.util.Map;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.elasticsearch.index.analysis.AbstractTokenizerFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;

/** Lucene's n-gram tokenizer under the name "ngram" (min_gram, max_gram), as analysis-common has it. */
public class NgramPlugin extends Plugin implements AnalysisPlugin {
  @Override
  public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
    return Map.of("ngram", (indexSettings, env, name, settings) -> {
      int min = settings.getAsInt("min_gram", NGramTokenizer.DEFAULT_MIN_NGRAM_SIZE);
      int max = settings.getAsInt("max_gram", NGramTokenizer.DEFAULT_MAX_NGRAM_SIZE);
      return new AbstractTokenizerFactory(indexSettings, settings, name) {
        @Override
        public Tokenizer create() {
          return new NGramTokenizer(min, max);
        }
      };
    });
  }
}
