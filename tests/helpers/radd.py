"""A RADD instance (the Mediapro pair) whose answer is known: de dicto, option 2."""

RADD_INSTANCE = {
    "pair": "P159_P206", "entity": "Mediapro",
    "spans": [
        {"premise": 1, "relation": "Barcelona", "start": "March 1997", "end": "January 2002"},
        {"premise": 2, "relation": "Barcelona", "start": "April 1994", "end": "February 1997"},
        {"premise": 3, "relation": "Esplugues de Llobregat", "start": "January 2002", "end": "January 2008"},
    ],
    "properties": [
        {"premise": 4, "relation": "Esplugues de Llobregat", "value_text": "Llobregat", "values": ["Llobregat"]},
        {"premise": 5, "relation": "Barcelona", "value_text": "Mediterranean Sea, Llobregat, Besòs",
         "values": ["Mediterranean Sea", "Llobregat", "Besòs"]},
    ],
    "regularity": "Physical locations do not change position relative to bodies of water on non-geological time scales.",
    "regularity_premise": 6, "current_date": "September 2006", "sentence_date": "May 1995",
    "value_text": "Mediterranean Sea, Llobregat, Besòs", "values": ["Mediterranean Sea", "Llobregat", "Besòs"],
    "options": [
        {"number": 1, "reading": "de_re", "relation": "Esplugues de Llobregat", "variant": 0},
        {"number": 2, "reading": "de_dicto", "relation": "Barcelona", "variant": 0},
    ],
    "question_variant": 0, "prompt_style": "direct", "label_nr": 2, "label_name": "de_dicto",
}
