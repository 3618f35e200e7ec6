/**
 * Diets and what breaks them: "vegan" against "ordered the steak" needs one step of knowledge,
 * which a short list of common foods gives. Burgers and sausages are left out: there are
 * vegetarian ones.
 */
export const DIETS: ReadonlyArray<{ readonly diet: RegExp; readonly breaks: RegExp }> = [
  { diet: /\b(?:vegetarian|veggie)\b/i, breaks: /\b(?:cheeseburger|hamburger|steak|beef|pork|chicken|bacon|ham|lamb|veal|salami|pepperoni|brisket|ribs|meatballs?|turkey|duck|tuna|salmon|shrimp|prawns?|fish)\b/i },
  { diet: /\bvegan\b/i, breaks: /\b(?:cheeseburger|hamburger|steak|beef|pork|chicken|bacon|ham|lamb|veal|salami|pepperoni|brisket|ribs|meatballs?|turkey|duck|tuna|salmon|shrimp|prawns?|fish|cheese|eggs?|omelett?e|milk|butter|honey|yogh?urt|latte)\b/i },
  { diet: /\b(?:pescatarian|pescetarian)\b/i, breaks: /\b(?:steak|beef|pork|chicken|bacon|ham|lamb|veal|salami|pepperoni|brisket|ribs|turkey|duck)\b/i },
  { diet: /\blactose[-\s]intolerant\b|\bdairy[-\s]free\b/i, breaks: /\b(?:milk|cheese|cream|butter|yogh?urt|ice\s+cream|milkshake|latte|cappuccino)\b/i },
  { diet: /\b(?:c[oe]eliac|gluten[-\s]free)\b/i, breaks: /\b(?:bread|pasta|pizza|bagels?|croissants?|beer|sandwich(?:es)?|noodles|couscous|pancakes?|waffles?)\b/i },
  { diet: /\bkosher\b/i, breaks: /\b(?:pork|bacon|ham|prosciutto|pepperoni|salami|shrimp|prawns?|lobster|crab|oysters?|clams?|scallops?|cheeseburger)\b/i },
  { diet: /\bhalal\b/i, breaks: /\b(?:pork|bacon|ham|prosciutto|pepperoni|salami)\b/i },
  { diet: /\b(?:teetotal|teetotaler|sober|does not drink|never drinks)\b/i, breaks: /\b(?:beers?|wine|whisk(?:e)?y|cocktails?|vodka|gin|rum|champagne|prosecco)\b/i },
]
